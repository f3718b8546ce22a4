import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadResourceLayer } from '../../api/src/bundled';
import { lint } from '../../api/src/cli/lint';
import { CachedDocumentReader, DocumentCascade } from '../../api/src/domain/cascade';
import { DocumentValidator } from '../../api/src/domain/documents/document-validator';
import { RecipeLoader, RecipeResolver, recipeDocumentKind } from '../../api/src/domain/recipes';
import { StaticSettings } from '../../api/src/domain/settings';
import { SkillResolver, skillDocumentKind } from '../../api/src/domain/skills';
import { skillEvalsDocumentKind } from '../../api/src/domain/activation';
import { InMemoryDocumentStore } from '../../api/src/domain/testing';
import { ARTHUR_DEFAULT_PROMPT, ENGINE_NAMES, enginePromptPath, FORD_DEFAULT_PROMPT } from '../../api/src/domain/engines';
import { createBuiltinFixture } from '../../api/src/domain/tools/builtin/builtin-fixture';
import { ToolRegistry } from '../../api/src/domain/tools/tool-registry';
import { NunjucksTemplateEngine } from '../../api/src/templates';

// The sweep of STYLE.md: everything we ship in vance-defaults/ loads with zero diagnostics,
// every skill resolves as AVAILABLE, and every recipe resolves and renders its prompt.
const DEFAULTS = path.resolve(__dirname, '../../vance-defaults');
const templates = new NunjucksTemplateEngine({ sandbox: 'in-process' });

describe('the bundled defaults', () => {
  it('load with zero errors and zero warnings', async () => {
    const report = await lint([DEFAULTS], new DocumentValidator([skillDocumentKind(templates), recipeDocumentKind(templates), skillEvalsDocumentKind()]));
    const problems = report.files.flatMap((f) => f.diagnostics.map((d) => `${f.file}:${d.line}: ${d.message}`));
    expect(problems).toEqual([]);
    expect(report.files.filter((f) => f.kind === 'recipe').map((f) => f.name).sort())
      .toEqual(['analyze', 'arthur', 'code-read', 'completion-guard', 'default', 'ford', 'quick-lookup', 'web-research']);
  });

  // Issue 20: `vance eval vance-defaults` runs in npm test (test/cli/eval-cli.test.ts); a skill without evals would pass unseen.
  it('ship an evals.yaml beside every skill that has triggers', async () => {
    const layer = await loadResourceLayer(DEFAULTS);
    const cascade = new DocumentCascade(new CachedDocumentReader(new InMemoryDocumentStore()), layer);
    const scope = { tenantId: 't', userProjectId: null, projectId: null, tenantProjectId: 'tp' };
    const triggered = (await new SkillResolver(cascade, templates).listAll(scope)).filter((s) => (s.skill?.triggers.length ?? 0) > 0).map((s) => s.name);
    expect(triggered.length).toBeGreaterThan(0);
    for (const name of triggered) expect(layer.get(`_vance/skills/${name}/evals.yaml`)?.content, name).toMatch(/^cases:/m);
  });

  it('ship a default prompt per engine that compiles as a template', async () => {
    const layer = await loadResourceLayer(DEFAULTS);
    for (const engine of ENGINE_NAMES) {
      const doc = layer.get(enginePromptPath(engine));
      expect(doc?.content.trim(), engine).toBeTruthy();
      expect(templates.check(doc!.content), engine).toEqual([]);
    }
    // The engines' built-in fallback says what the bundled document says.
    expect(layer.get(enginePromptPath('ford'))!.content.trimEnd()).toBe(FORD_DEFAULT_PROMPT);
    expect(layer.get(enginePromptPath('arthur'))!.content.trimEnd()).toBe(ARTHUR_DEFAULT_PROMPT);
  });

  it('resolve: every skill AVAILABLE with its references, every recipe with a rendered prompt', async () => {
    const cascade = new DocumentCascade(new CachedDocumentReader(new InMemoryDocumentStore()), await loadResourceLayer(DEFAULTS));
    const scope = { tenantId: 't', userProjectId: null, projectId: null, tenantProjectId: 'tp' };
    const skills = await new SkillResolver(cascade, templates).listAll(scope);
    expect(skills.map((s) => [s.name, s.status, s.diagnostics.length])).toEqual([
      ['code-guard', 'AVAILABLE', 0], ['code-review', 'AVAILABLE', 0], ['typescript-style', 'AVAILABLE', 0],
    ]);
    const review = skills.find((s) => s.name === 'code-review')!;
    expect(review.references.every((r) => r.content !== null)).toBe(true);
    const loader = new RecipeLoader({ cascade, templates });
    const resolver = new RecipeResolver({ loader, templates, tools: new ToolRegistry((await createBuiltinFixture()).tools) });
    const settings = new StaticSettings({ 'ai.default.provider': 'openai', 'ai.default.model': 'gpt-4o' });
    for (const name of ['default', 'arthur', 'ford', 'quick-lookup', 'analyze', 'web-research', 'code-read', 'completion-guard']) {
      for (const profile of ['foot', 'web', 'mobile']) {
        const r = await resolver.resolve({ scope, tenantName: 'default', settings, recipe: name, profile, engineDefaultPrompt: 'You are a Vance engine.' });
        expect(r.warnings, `${name}/${profile}`).toEqual([]);
        expect(r.systemPromptPreview, `${name}/${profile}`).toBeTruthy();
      }
    }
  });
});
