import { describe, expect, it } from 'vitest';
import { cascadeWith, FakeTemplateEngine, SCOPE } from '../../recipes/testing';
import type { ToolPoolInput } from '../../recipes/tool-pool';
import { SkillResolver } from '../../skills/skill-resolver';
import type { ToolDescriptor } from '../../tools/tool-descriptor';
import type { ActiveSkillRef } from '../process';
import { SkillSetCache } from '../triggers/skill-set-cache';
import { keywords, skillMd, triggers } from '../triggers/testing';
import { createTurnCaches, prepareTurn, type PrepareTurnInput } from './prepare-turn';

const CATALOG: ToolDescriptor[] = ['respond', 'doc_read', 'doc_write', 'web_fetch', 'web_search', 'rag_query'].map((name) => ({ name, labels: [] }));
const TOOLS: ToolPoolInput = { available: CATALOG, engineAllowed: ['respond', 'doc_read'], add: [], remove: ['web_fetch'] };

const ref = (name: string, args: string | null = null): ActiveSkillRef => ({
  name, resolvedFromScope: 'VANCE', oneShot: false, fromRecipe: false, activatedAt: '2024-01-01T00:00:00.000Z', args, reason: `Explicit: /skill ${name}.`,
});

/** A tenant layer with a few skills, listed through the real resolver and the SkillSetCache. */
async function setup() {
  const { cascade, write } = cascadeWith();
  const put = (name: string, spec: Parameters<typeof skillMd>[1]) => write('VANCE', `_vance/skills/${name}/SKILL.md`, skillMd(name, spec));
  await put('code-review', { description: 'Review changes', frontmatter: ['arguments: true', 'tools: [web_fetch]'], body: 'Review {{ args.text }} for {{ recipe }}.' });
  await put('ts-style', { description: 'TypeScript style', frontmatter: [...triggers(keywords(['typescript', 'tsconfig'])), 'tools: [rag_query]'], body: 'Strict types.' });
  await put('macro', { description: 'A prompt macro', frontmatter: ['lifecycle: shot', ...triggers(keywords(['macro'])), 'tools: [web_search]'], body: 'Do it now.' });
  await put('broken', { description: 'Fails to render', frontmatter: ['tools: [doc_write]'], body: '{{ explode }}' });
  const templates = new FakeTemplateEngine();
  const skillSets = new SkillSetCache(new SkillResolver(cascade));
  const caches = createTurnCaches();
  const turn = async (input: Partial<PrepareTurnInput>) =>
    prepareTurn({
      skills: await skillSets.list(SCOPE), activeSkills: [], allowedSkillsOverride: null, message: null, templates, renderContext: { recipe: 'analyze' }, toolInput: TOOLS, caches, ...input,
    });
  return { turn, caches, skillSets, write, put };
}

describe('prepareTurn (seed 000 §4a, §5)', () => {
  it('resolves the active skills in activation order, composes them and unions their tools', async () => {
    const { turn } = await setup();
    const prepared = await turn({ activeSkills: [ref('ts-style'), ref('code-review', 'the lane')] });
    expect(prepared.activeResolved.map((r) => [r.ref.name, r.skill.source])).toEqual([['ts-style', 'VANCE'], ['code-review', 'VANCE']]);
    expect(prepared.skillsSection).toBe('--- Skill: ts-style ---\nTypeScript style\nStrict types.\n--- Skill: code-review ---\nReview changes\nReview the lane for analyze.');
    // web_fetch is removed by the recipe and comes back for the active skill: skills only add (seed 000 §5b).
    expect(prepared.toolPool.allowed).toEqual(['doc_read', 'rag_query', 'respond', 'web_fetch']);
    expect(prepared.triggered).toEqual([]);
    expect(prepared.warnings).toEqual([]);
  });

  it('composes triggered skills after the active ones, one-shot and without arguments, and reports why', async () => {
    const { turn } = await setup();
    const prepared = await turn({ activeSkills: [ref('code-review')], message: 'Is my tsconfig right?' });
    expect(prepared.triggered.map((m) => [m.skill, m.reason])).toEqual([['ts-style', 'Mentioned: tsconfig.']]);
    expect(prepared.composedSkills).toEqual(['code-review', 'ts-style']);
    expect(prepared.toolPool.allowed).toContain('rag_query');
  });

  it('does not trigger an already active skill again, nor outside the whitelist', async () => {
    const { turn } = await setup();
    expect((await turn({ activeSkills: [ref('ts-style')], message: 'typescript' })).triggered).toEqual([]);
    expect((await turn({ message: 'typescript', allowedSkillsOverride: ['code-review'] })).triggered).toEqual([]);
    expect((await turn({ message: 'typescript', allowedSkillsOverride: [] })).triggered).toEqual([]);
  });

  it('reports a triggered shot skill but never composes it or adds its tools (seed 000 §2a, §5b)', async () => {
    const { turn } = await setup();
    const prepared = await turn({ message: 'run the macro' });
    expect(prepared.triggered.map((m) => m.skill)).toEqual(['macro']);
    expect(prepared.skillsSection).toBe('');
    expect(prepared.toolPool.allowed).not.toContain('web_search');
  });

  it('skips unknown and shot refs with a warning, and a body that fails to render without losing its tools', async () => {
    const { turn } = await setup();
    const prepared = await turn({ activeSkills: [ref('gone'), ref('macro'), ref('broken'), ref('ts-style')] });
    expect(prepared.activeResolved.map((r) => r.ref.name)).toEqual(['macro', 'broken', 'ts-style']);
    expect(prepared.composedSkills).toEqual(['ts-style']);
    expect(prepared.warnings.map((w) => w.skill)).toEqual(['gone', 'macro', 'broken']);
    expect(prepared.warnings[0]?.message).toBe("Active skill 'gone' is not available in this scope (deleted, disabled or invalid); skipped this turn.");
    expect(prepared.toolPool.allowed).toContain('doc_write');
    expect(prepared.toolPool.allowed).not.toContain('web_search');
  });

  it('builds the trigger index once for many turns, and again after a skill document changes', async () => {
    const { turn, caches, skillSets, put } = await setup();
    for (const message of ['typescript', 'hello', 'tsconfig and typescript']) await turn({ message });
    expect(caches.indexes.builds).toBe(1);
    await put('new-skill', { frontmatter: triggers(keywords(['hello'])) });
    skillSets.onDocumentChanged({ projectId: 'tenant-p', path: '_vance/skills/new-skill/SKILL.md' });
    expect((await turn({ message: 'hello' })).triggered.map((m) => m.skill)).toEqual(['new-skill']);
    expect(caches.indexes.builds).toBe(2);
  });

  it('keeps tools already in toolInput.skillTools and gives equal pools for equal inputs', async () => {
    const { turn } = await setup();
    const a = await turn({ activeSkills: [ref('ts-style')], toolInput: { ...TOOLS, skillTools: ['web_search'] } });
    const b = await turn({ activeSkills: [ref('ts-style')], toolInput: { ...TOOLS, skillTools: ['web_search'] } });
    expect(a.toolPool.allowed).toEqual(['doc_read', 'rag_query', 'respond', 'web_search']);
    expect(b.toolPool).toBe(a.toolPool);
    expect(Object.isFrozen(a.toolPool.allowed)).toBe(true);
  });
});
