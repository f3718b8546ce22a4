/**
 * Skill validation by document path, for `putDocument` (refuse on errors unless forced),
 * `validateDocument` and the `vance lint` CLI. Shaped like documents/document-validator.ts's
 * DocumentKind (structurally, so this folder does not depend on that one). Validates the SKILL.md
 * alone; missing sibling files are reported by the resolver, which knows the layer.
 */
import type { Diagnostic } from '../errors';
import type { TemplateEngine } from '../templates/template-engine';
import type { ToolCatalog } from '../tools/tool-descriptor';
import type { BacktrackingAnalyser } from './backtracking-analyser';
import { parseSkill } from './parse-skill';

/** `_vance/skills/<name>/SKILL.md` directly in a skill folder; group 1 is the folder name. */
export const SKILL_PATH_PATTERN = /^_vance\/skills\/([^/]+)\/SKILL\.md$/;

export interface SkillDocumentKind {
  readonly kind: 'skill';
  readonly pattern: RegExp;
  validate(path: string, match: RegExpExecArray, content: string): Diagnostic[];
}

/**
 * `analyser`: the save-time backtracking advice on trigger patterns (issue 13); `tools`: the catalog
 * `tools:` entries are checked against, read at each validation (issue 15). Validation is where both run.
 */
export function skillDocumentKind(templates?: TemplateEngine, analyser?: BacktrackingAnalyser, tools?: ToolCatalog): SkillDocumentKind {
  return {
    kind: 'skill',
    pattern: SKILL_PATH_PATTERN,
    validate: (path, match, content) => [...parseSkill({ name: match[1] ?? path, path, content }, templates, { ...(analyser ? { analyser } : {}), ...(tools ? { tools: tools.list() } : {}) }).diagnostics],
  };
}
