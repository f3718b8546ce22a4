import { estimateJsonTokens, estimateTokens } from './tokens';

/**
 * Fitting a turn into the model's context window (issue 8; seed 003 "The budget reserves it … history
 * gives way to it and it is never dropped"). The system prompt, the skills section and the tool specs
 * are reserved in full; history gives way, oldest first:
 *
 * - kept history is always a suffix (the newest messages), as long as it fits;
 * - the newest user message is always kept, together with everything after it (the tool calls and
 *   results of the turn in progress), even when that does not fit;
 * - the skills section is NEVER dropped: when the reserved parts alone exceed the window, they are
 *   still all kept and `exceeded` says so (the caller decides whether to send or refuse).
 *
 * Each part is given as text or as an already counted number of tokens (estimateTokens otherwise);
 * tools as their JSON specs (estimateJsonTokens each) or a token count.
 */
export type TokenSource = string | number;

export interface HistoryMessage {
  readonly role: 'user' | 'assistant' | 'system' | 'tool';
  readonly content: TokenSource;
}

export interface ContextBudgetInput {
  readonly window: number;
  readonly system: TokenSource;
  readonly skills: TokenSource;
  /** The tool specs as sent (JSON-able objects), or their token count. */
  readonly tools: readonly unknown[] | number;
  /** Oldest first. */
  readonly history: readonly HistoryMessage[];
  /** Tokens kept free for the reply (default 0). */
  readonly reserveForReply?: number;
  /** Per-message framing overhead in tokens (default 0). */
  readonly perMessage?: number;
}

export interface TokenSplit {
  readonly system: number;
  readonly skills: number;
  readonly history: number;
  readonly tools: number;
  readonly total: number;
  readonly window: number;
}

export interface FittedContext {
  /** Indexes into `history` (oldest first) that are sent. */
  readonly kept: readonly number[];
  /** Indexes into `history` left out, oldest first. */
  readonly dropped: readonly number[];
  readonly split: TokenSplit;
  /** The sent parts (plus the reply reserve) exceed the window. */
  readonly exceeded: boolean;
  /** "History: 12 of 40 messages kept (28 oldest dropped); skills 1,200 tokens reserved." */
  readonly summary: string;
}

export function fitContext(input: ContextBudgetInput): FittedContext {
  const count = (source: TokenSource): number => (typeof source === 'number' ? source : estimateTokens(source));
  const perMessage = input.perMessage ?? 0;
  const system = count(input.system);
  const skills = count(input.skills);
  const tools = typeof input.tools === 'number' ? input.tools : input.tools.reduce<number>((sum, tool) => sum + estimateJsonTokens(tool), 0);
  const reserved = system + skills + tools + (input.reserveForReply ?? 0);
  // Priced newest first and only until the window is full: what is dropped is never counted, so a
  // turn's cost follows the window, not the length of the conversation.
  const sizeOf = (i: number): number => count(input.history[i]!.content) + perMessage;

  // The suffix that must stay: from the newest user message on (everything, if there is none).
  let lastUser = -1;
  for (let i = input.history.length - 1; i >= 0; i--) {
    if (input.history[i]!.role === 'user') {
      lastUser = i;
      break;
    }
  }
  const mustFrom = lastUser === -1 ? input.history.length : lastUser;
  let from = input.history.length;
  let history = 0;
  for (let i = input.history.length - 1; i >= 0; i--) {
    const size = sizeOf(i);
    if (i >= mustFrom || reserved + history + size <= input.window) {
      history += size;
      from = i;
    } else {
      break;
    }
  }
  const kept = Array.from({ length: input.history.length - from }, (_v, k) => from + k);
  const dropped = Array.from({ length: from }, (_v, k) => k);
  const total = system + skills + tools + history;
  const exceeded = total + (input.reserveForReply ?? 0) > input.window;
  const split: TokenSplit = { system, skills, history, tools, total, window: input.window };
  return { kept, dropped, split, exceeded, summary: summarize(kept.length, input.history.length, skills, exceeded, split) };
}

function summarize(kept: number, all: number, skills: number, exceeded: boolean, split: TokenSplit): string {
  const droppedText = all - kept > 0 ? ` (${all - kept} oldest dropped)` : '';
  const over = exceeded ? ` Over the window: ${split.total} of ${split.window} tokens.` : '';
  return `History: ${kept} of ${all} messages kept${droppedText}; skills ${skills} tokens reserved.${over}`;
}
