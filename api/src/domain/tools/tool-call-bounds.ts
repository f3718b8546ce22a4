/**
 * The caps on what a model's tool call carries in and what a tool hands back, applied in the turn
 * loop before a call is dispatched, emitted or stored (issue 13 part 5). A call over a cap is not
 * run: the model gets a tool error saying which cap, and the turn goes on.
 */
import { jsonTextProblem, jsonValueProblem } from '../shared/json-bounds';

export const MAX_TOOL_ARGUMENT_CHARS = 1_000_000;
export const MAX_TOOL_ARGUMENT_DEPTH = 64;
export const MAX_TOOL_RESULT_CHARS = 1_000_000;

/** Why a call's (parsed) arguments are refused, or null. */
export function toolArgumentsProblem(args: unknown): string | null {
  const problem = jsonValueProblem(args, MAX_TOOL_ARGUMENT_CHARS, MAX_TOOL_ARGUMENT_DEPTH);
  return problem === null ? null : `the arguments ${problem}`;
}

/** Why raw argument text is refused before it is parsed, or null. */
export function toolArgumentTextProblem(json: string): string | null {
  const problem = jsonTextProblem(json, MAX_TOOL_ARGUMENT_CHARS, MAX_TOOL_ARGUMENT_DEPTH);
  return problem === null ? null : `the arguments ${problem}`;
}

/** A tool result cut to the cap, saying that it was. */
export function capToolResult(content: string): string {
  if (content.length <= MAX_TOOL_RESULT_CHARS) return content;
  return `${content.slice(0, MAX_TOOL_RESULT_CHARS)}\n… (the tool result was cut: ${content.length} characters, over the limit of ${MAX_TOOL_RESULT_CHARS})`;
}
