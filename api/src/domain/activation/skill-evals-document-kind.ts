import type { Diagnostic } from '../errors';
import { EVALS_PATH_PATTERN, parseSkillEvals } from './parse-skill-evals';

/**
 * `_vance/skills/<name>/evals.yaml` as a validated document (issue 20): `putDocument` refuses an
 * invalid one unless forced, `validateDocument` and `vance lint` show its diagnostics. Shaped like
 * documents/document-validator.ts's DocumentKind (structurally).
 */
export function skillEvalsDocumentKind(): { readonly kind: 'skill-evals'; readonly pattern: RegExp; validate(path: string, match: RegExpExecArray, content: string): Diagnostic[] } {
  return { kind: 'skill-evals', pattern: EVALS_PATH_PATTERN, validate: (path, _match, content) => [...parseSkillEvals(path, content).diagnostics] };
}
