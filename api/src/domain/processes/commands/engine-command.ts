import { InvalidInputError } from '../../errors';

/**
 * The engine-command notation (seed 000 §2a; the notation of the `//` surface): `verb rest…`.
 * The first whitespace-delimited word is the verb, the rest of the text (may span lines, as in
 * `guard inline\n<js…>`) is the argument text the verb's handler reads.
 *
 * - A leading `//` (the chat surface, `//guard clear`) is accepted and stripped; the verb must follow
 *   it directly (`// guard` reads like a comment and is refused).
 * - Verbs are ASCII words, optionally dotted for namespaces (`status.set`), matched in any case and
 *   stored lower-cased.
 * - CRLF becomes LF; the whole command is trimmed. `rest` starts after the separator: spaces/tabs on
 *   the verb's line and, when the line ends there, the blank lines after it (indentation of the first
 *   real line is kept); trailing whitespace is dropped.
 */
export interface EngineCommand {
  /** The command as written, CRLF → LF, trimmed (with its `//` if it had one). */
  readonly text: string;
  readonly verb: string;
  readonly rest: string;
}

export type EngineCommandErrorCode = 'INVALID_COMMAND' | 'UNKNOWN_COMMAND';

export class EngineCommandError extends InvalidInputError {
  constructor(code: EngineCommandErrorCode, message: string, readonly command: string) {
    super(code, message, 'command');
  }
}

const VERB = /^[A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z][A-Za-z0-9_-]*)*$/;
const MAX_SHOWN = 60;

export function parseEngineCommand(command: string): EngineCommand {
  const text = normalizeCommandText(command);
  if (text === '') throw new EngineCommandError('INVALID_COMMAND', 'Empty command; write `verb rest…`, e.g. `guard clear`', text);
  let body = text;
  if (body.startsWith('//')) {
    body = body.slice(2);
    if (body === '' || /^\s/.test(body)) throw new EngineCommandError('INVALID_COMMAND', "A command needs a verb right after '//', e.g. `//guard clear`", text);
  }
  const { word, rest } = splitFirstWord(body);
  if (!VERB.test(word)) {
    throw new EngineCommandError('INVALID_COMMAND', `Invalid command verb '${shortenCommand(word)}'; a verb is a word such as 'guard' or 'status.set'`, text);
  }
  return { text, verb: word.toLowerCase(), rest };
}

export function normalizeCommandText(command: string): string {
  return String(command).replace(/\r\n?/g, '\n').trim();
}

/** The first whitespace-delimited word of `text` and everything after its separator (see above). */
export function splitFirstWord(text: string): { readonly word: string; readonly rest: string } {
  const trimmed = text.replace(/^\s+/, '');
  const match = /^\S+/.exec(trimmed);
  const word = match ? match[0] : '';
  const rest = trimmed
    .slice(word.length)
    .replace(/^[ \t]+/, '')
    .replace(/^(?:[ \t]*\n)+/, '')
    .trimEnd();
  return { word, rest };
}

/** The first line of a command, at most 60 characters, for messages and event lines. */
export function shortenCommand(text: string): string {
  const firstLine = text.split('\n', 1)[0] ?? '';
  const more = firstLine.length < text.length;
  if (firstLine.length > MAX_SHOWN) return `${firstLine.slice(0, MAX_SHOWN)}…`;
  return more ? `${firstLine} …` : firstLine;
}
