/**
 * Validator corrections (seed 004 §5a): with params.validation on, a turn whose reply shows a failure
 * pattern gets one corrective system message and another model round. Structural, not regex-based:
 *  - no-tool-call: the turn's replies contained no tool call at all — neither a work tool nor
 *    `respond` (engine wording, no override: it tells the model to reply through respond);
 *  - data-relay-gap: tools returned ≥ 500 characters this turn, the reply has ≤ 200 (recipe
 *    `dataRelayCorrection`, a format string with two %d: tool data characters, reply length).
 * Each fires at most once per turn.
 */
export const NO_TOOL_CALL_CORRECTION =
  'VALIDATION CHECK: your reply called no tool. If the task needs work, call the tool that does it now; '
  + 'if you are done, call respond with your final reply.';
/** The same for a turn that is not offered respond (a recipe removed it). */
export const NO_TOOL_CALL_CORRECTION_WITHOUT_RESPOND =
  'VALIDATION CHECK: your reply called no tool. If the task needs work, call the tool that does it now; '
  + 'if you are done, reply again with your final result.';

export const DEFAULT_DATA_RELAY_CORRECTION =
  'VALIDATION CHECK: your tools returned %d characters of data, but your reply has only %d. '
  + 'The caller sees only your reply: include the data your answer rests on.';

export const DATA_RELAY_MIN_TOOL_CHARS = 500;
export const DATA_RELAY_MAX_REPLY_CHARS = 200;

export type CorrectionKind = 'no-tool-call' | 'data-relay-gap';

export interface ReplyFacts {
  readonly anyToolCall: boolean;
  readonly toolDataChars: number;
  readonly replyChars: number;
  /** Whether the turn offers respond (default true): the correction tells the model to use it. */
  readonly respondOffered?: boolean;
}

export function correctionFor(facts: ReplyFacts, used: ReadonlySet<CorrectionKind>, dataRelayCorrection: string | null): { kind: CorrectionKind; text: string } | null {
  if (!facts.anyToolCall && !used.has('no-tool-call')) {
    return { kind: 'no-tool-call', text: facts.respondOffered === false ? NO_TOOL_CALL_CORRECTION_WITHOUT_RESPOND : NO_TOOL_CALL_CORRECTION };
  }
  if (facts.toolDataChars >= DATA_RELAY_MIN_TOOL_CHARS && facts.replyChars <= DATA_RELAY_MAX_REPLY_CHARS && !used.has('data-relay-gap')) {
    const template = dataRelayCorrection && dataRelayCorrection.trim() !== '' ? dataRelayCorrection : DEFAULT_DATA_RELAY_CORRECTION;
    return { kind: 'data-relay-gap', text: formatSafe(template, facts.toolDataChars, facts.replyChars) };
  }
  return null;
}

/**
 * Java's String.format for the two-%d case, safely: `%d` takes the next argument, `%%` is a percent
 * sign, `%n` a newline. Any other conversion or a missing argument is a "format exception": the
 * template is returned literally instead of failing the turn. Extra arguments are ignored (as in Java).
 */
export function formatSafe(template: string, ...args: readonly number[]): string {
  let index = 0;
  let failed = false;
  const out = template.replace(/%(.)?/gs, (match, conversion: string | undefined) => {
    if (conversion === '%') return '%';
    if (conversion === 'n') return '\n';
    if (conversion === 'd' && index < args.length) return String(Math.trunc(args[index++]!));
    failed = true;
    return match;
  });
  return failed ? template : out;
}
