import { describe, expect, it } from 'vitest';
import { FakeTemplateEngine } from '../../recipes/testing';
import { available, type SkillSpec } from '../triggers/testing';
import { RenderedBodyCache } from './rendered-body-cache';
import { composeSkillsSection, type SectionSkill } from './skills-section';

const CONTEXT = { recipe: 'analyze', mode: 'NORMAL' };
const entry = (name: string, spec: SkillSpec = {}, args: string | null = null): SectionSkill => ({ skill: available(name, spec), args });

const REFS = [
  'referenceDocs:',
  '  - title: Checklist',
  '    file: references/checklist.md',
  '    loadMode: INLINE',
  '  - title: Deep dive',
  '    file: references/deep.md',
  '    summary: Background and edge cases',
  '    loadMode: ON_DEMAND',
  '  - title: Glossary',
  '    file: references/glossary.md',
  '    loadMode: ON_DEMAND',
  '  - title: Style',
  '    file: references/style.md',
  '    loadMode: INLINE',
];
const FILES = {
  'references/checklist.md': '- one\n- two {{ not rendered }}\n',
  'references/deep.md': 'Long text',
  'references/glossary.md': 'Words',
  'references/style.md': 'Be brief.',
};

describe('composeSkillsSection (seed 000 §5a, §5c)', () => {
  it('writes each skill in activation order in the seed format, INLINE docs embedded and ON_DEMAND docs listed', async () => {
    const section = await composeSkillsSection(
      [
        entry('code-review', { description: 'Review the current changes', frontmatter: REFS, files: FILES, body: 'Review method for {{ recipe }}.\n' }),
        entry('typescript-style', { description: 'House style', body: 'Use strict types.' }),
      ],
      new FakeTemplateEngine(),
      CONTEXT,
    );
    expect(section.text).toBe(
      [
        '--- Skill: code-review ---',
        'Review the current changes',
        'Review method for analyze.',
        '--- Reference Doc: Checklist ---',
        '- one\n- two {{ not rendered }}',
        '--- Reference Doc: Style ---',
        'Be brief.',
        'On-demand references — load via skill_reference_doc:',
        '- Deep dive — Background and edge cases',
        '- Glossary',
        '--- Skill: typescript-style ---',
        'House style',
        'Use strict types.',
      ].join('\n'),
    );
    expect(section.composed).toEqual(['code-review', 'typescript-style']);
    expect(section.warnings).toEqual([]);
  });

  it('leaves out a blank body (a config-only skill) and gives "" for no skills', async () => {
    const templates = new FakeTemplateEngine();
    expect((await composeSkillsSection([entry('guard', { description: 'Guards', body: '' })], templates, CONTEXT)).text).toBe('--- Skill: guard ---\nGuards');
    expect(await composeSkillsSection([], templates, CONTEXT)).toEqual({ text: '', composed: [], warnings: [] });
  });

  it('skips only the skill whose body fails to render, with a warning naming the SKILL.md line', async () => {
    const section = await composeSkillsSection(
      [entry('first', { body: 'One.' }), entry('broken', { body: 'Fine line.\n{{ explode }}' }), entry('third', { body: 'Three.' })],
      new FakeTemplateEngine(),
      CONTEXT,
    );
    expect(section.composed).toEqual(['first', 'third']);
    expect(section.text).not.toContain('broken');
    expect(section.warnings).toEqual([{ skill: 'broken', message: "Skill 'broken' skipped: its body failed to render: fake failure" }]);
  });

  it('binds each skill its own arguments; a required argument that no longer binds skips the skill', async () => {
    const named = ['arguments:', '  - name: scope', '    required: true'];
    const section = await composeSkillsSection(
      [
        entry('raw', { frontmatter: ['arguments: true'], body: 'Raw: {{ args.text }} / {{ args.scope }}' }, 'src  main'),
        entry('named', { frontmatter: named, body: 'Scope: {{ args.scope }}' }, 'src/domain the lane'),
        entry('none', { body: 'None: [{{ args.text }}]' }, 'ignored'),
        entry('missing', { frontmatter: named, body: 'Scope: {{ args.scope }}' }, null),
      ],
      new FakeTemplateEngine(),
      CONTEXT,
    );
    expect(section.text).toContain('Raw: src  main /\n');
    expect(section.text).toContain('Scope: src/domain the lane\n');
    expect(section.text).toContain('None: []');
    expect(section.composed).toEqual(['raw', 'named', 'none']);
    expect(section.warnings).toEqual([{ skill: 'missing', message: "Skill 'missing' skipped: Skill 'missing' requires argument 'scope'." }]);
  });

  it('leaves out a reference file missing from the layer, with a warning', async () => {
    const section = await composeSkillsSection([entry('code-review', { frontmatter: REFS, files: { ...FILES, 'references/style.md': null, 'references/glossary.md': null } })], new FakeTemplateEngine(), CONTEXT);
    expect(section.text).not.toContain('Style');
    expect(section.text).not.toContain('Glossary');
    expect(section.warnings.map((w) => w.message)).toEqual([
      "Skill 'code-review': reference doc 'Glossary' (references/glossary.md) is missing from its layer; left out.",
      "Skill 'code-review': reference doc 'Style' (references/style.md) is missing from its layer; left out.",
    ]);
  });

  it('does not send a body without template syntax to the engine', async () => {
    const templates = new FakeTemplateEngine();
    await composeSkillsSection([entry('plain', { body: 'Curly { braces } alone are text.' }), entry('templated', { body: '{{ recipe }}' })], templates, CONTEXT);
    expect(templates.rendered).toEqual(['{{ recipe }}']);
  });

  it('with a RenderedBodyCache renders a body once per distinct render data, and never memoises `random`', async () => {
    const templates = new FakeTemplateEngine();
    const bodies = new RenderedBodyCache();
    const skills = [entry('a', { frontmatter: ['arguments: true'], body: 'A {{ recipe }} {{ args.text }}' }, 'x'), entry('r', { body: '{{ recipe }} {# random #}' })];
    const first = await composeSkillsSection(skills, templates, CONTEXT, { bodies });
    expect((await composeSkillsSection(skills, templates, CONTEXT, { bodies })).text).toBe(first.text);
    expect(templates.rendered).toEqual(['A {{ recipe }} {{ args.text }}', '{{ recipe }} {# random #}', '{{ recipe }} {# random #}']);
    await composeSkillsSection(skills, templates, { ...CONTEXT, recipe: 'other' }, { bodies });
    await composeSkillsSection([{ ...skills[0]!, args: 'y' }], templates, CONTEXT, { bodies });
    expect(templates.rendered.filter((s) => s.startsWith('A '))).toHaveLength(3);
    expect(bodies.engineRenders).toBe(6);
  });
});
