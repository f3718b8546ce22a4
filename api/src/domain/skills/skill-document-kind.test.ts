import { describe, expect, it } from 'vitest';
import { DocumentValidator } from '../documents/document-validator';
import { skillDocumentKind } from './skill-document-kind';

describe('skillDocumentKind', () => {
  const validator = new DocumentValidator([skillDocumentKind()]);

  it('validates SKILL.md files of skill folders by their folder name, and nothing else', () => {
    expect(validator.kindOf('_vance/skills/code-review/SKILL.md')).toBe('skill');
    expect(validator.kindOf('_vance/skills/code-review/references/checklist.md')).toBeNull();
    expect(validator.kindOf('_vance/skills/a/b/SKILL.md')).toBeNull();
    expect(validator.validate('_vance/skills/code-review/SKILL.md', '---\nname: other\ndescription: D\ntitle: T\nversion: 1.0.0\n---\n')).toMatchObject([
      { severity: 'WARNING', field: 'name', line: 2, path: '_vance/skills/code-review/SKILL.md', message: expect.stringMatching(/folder 'code-review'/) },
    ]);
  });

  it('returns the parse errors of a broken skill', () => {
    expect(validator.validate('_vance/skills/x/SKILL.md', 'no fences')).toMatchObject([{ severity: 'ERROR', field: 'frontmatter', line: 1 }]);
  });
});
