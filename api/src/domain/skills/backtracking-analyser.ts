import type { JsRegexSource } from './trigger-regex';

/**
 * The port for the save-time ReDoS analysis of trigger patterns (issue 13), for the author's benefit
 * only: matching runs on RE2 (trigger-regex.ts) and is linear whatever the verdict, so a pattern
 * that would backtrack exponentially or polynomially on a backtracking engine is accepted with a
 * WARNING — it is fine here, but not if the author reuses it in Java or JavaScript. The adapter
 * (regex-analysis/, on recheck) bounds its own time; a verdict it cannot reach in time is UNKNOWN and
 * says nothing. Injected where documents are validated (putDocument, validateDocument, `vance lint`),
 * not where skills are loaded for a turn.
 */
export type BacktrackingVerdict =
  | { readonly kind: 'SAFE' }
  | {
      readonly kind: 'EXPONENTIAL' | 'POLYNOMIAL';
      /** POLYNOMIAL: the degree (2 = quadratic); null otherwise or when unknown. */
      readonly degree: number | null;
      /** The parts of the analysed source that backtrack, as written there (at most a few). */
      readonly hotspots: readonly string[];
    }
  | { readonly kind: 'UNKNOWN'; readonly reason: string };

export interface BacktrackingAnalyser {
  analyse(regex: JsRegexSource): BacktrackingVerdict;
}

/** The sentence of the WARNING for a vulnerable verdict (parse-triggers.ts adds the field). */
export function backtrackingWarning(verdict: Extract<BacktrackingVerdict, { kind: 'EXPONENTIAL' | 'POLYNOMIAL' }>): string {
  const at = verdict.hotspots.length > 0 ? ` (at ${verdict.hotspots.map((h) => `\`${h}\``).join(', ')})` : '';
  const shape = verdict.kind === 'EXPONENTIAL'
    ? 'exponential backtracking'
    : `${verdict.degree === null ? 'polynomial' : `${ordinal(verdict.degree)}-degree polynomial`} backtracking`;
  const consequence = verdict.kind === 'EXPONENTIAL'
    ? 'a few dozen characters can hang it. Before using it elsewhere, rewrite it so a repeated part cannot match the same text in several ways (e.g. `a+b` rather than `(a+)+b`).'
    : 'a long message costs time that grows with a power of its length. Before using it elsewhere, bound the gaps (e.g. `.{0,100}` rather than `.*`).';
  return `has ${shape}${at}: harmless here, where trigger patterns run on a linear-time engine (RE2), but on a backtracking engine (Java, JavaScript) ${consequence}`;
}

function ordinal(n: number): string {
  const suffix = n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th';
  return `${n}${suffix}`;
}
