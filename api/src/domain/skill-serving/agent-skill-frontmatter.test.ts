import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { agentSkillView } from './agent-skill-frontmatter';

const frontmatterOf = (md: string) => parse(/^---\n([\s\S]*?)---\n/.exec(md)![1]!) as unknown;

describe('agentSkillView', () => {
  it('keeps the six Agent Skills fields and moves every Vance field under metadata as strings', () => {
    const view = agentSkillView('review', [
      '---', 'title: Review', 'description: Reviews code', 'version: "1.2.0"', 'license: MIT', 'compatibility: Needs git',
      'allowed-tools: Read Grep', 'metadata:', '  owner: platform', '  rank: 3', 'triggers:', '  - type: KEYWORDS', '    keywords: [review]',
      'disable-model-invocation: false', 'name: ignored-name', '---', 'Body line.', '',
    ].join('\n'), 'Review');
    expect(view.frontmatter).toEqual({
      name: 'review',
      description: 'Reviews code',
      license: 'MIT',
      compatibility: 'Needs git',
      'allowed-tools': 'Read Grep',
      metadata: {
        owner: 'platform',
        rank: '3',
        version: '1.2.0',
        'vance.title': 'Review',
        'vance.triggers': '[{"type":"KEYWORDS","keywords":["review"]}]',
        'vance.disable-model-invocation': 'false',
      },
    });
    expect(frontmatterOf(view.skillMd)).toEqual(view.frontmatter);
    expect(view.skillMd.endsWith('---\nBody line.\n')).toBe(true);
  });

  it("keeps the author's metadata.version over Vance's version and joins a list of allowed tools", () => {
    const view = agentSkillView('x', '---\ndescription: d\nversion: "2.0.0"\nmetadata:\n  version: "9"\nallowed-tools: [a, b]\n---\nB\n', 'X');
    expect(view.frontmatter.metadata).toEqual({ version: '9' });
    expect(view.frontmatter['allowed-tools']).toBe('a b');
  });

  it('falls back to the title when the description is blank, and serves no metadata when there is none', () => {
    const view = agentSkillView('plain', '---\ndescription: "  "\n---\nB\n', 'Plain title');
    expect(view.frontmatter).toEqual({ name: 'plain', description: 'Plain title' });
  });

  it('serves a frontmatter that survives characters YAML would misread', () => {
    const view = agentSkillView('odd', '---\ndescription: "yes: #not a comment\\n- no list"\ntitle: "@at"\nversion: "1.0.0"\n---\nB\n', 'T');
    expect(frontmatterOf(view.skillMd)).toEqual(view.frontmatter);
    expect(view.frontmatter.description).toBe('yes: #not a comment\n- no list');
  });
});
