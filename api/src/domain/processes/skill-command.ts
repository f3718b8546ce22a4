import { InvalidInputError } from '../errors';
import { skillNameProblem } from '../skills/skill-paths';

/**
 * The `/skill` slash command (seed 000 §4b, §6a): one line in, one structured command out. The line
 * is a control signal, never a question to the model; what the server does with it is the activation
 * service's business.
 *
 *   /skill <name> [args…]           ACTIVATE, sticky
 *   /skill <name> --once [args…]    ACTIVATE, one-shot (also `/skill --once <name> [args…]`)
 *   /skill list                     LIST
 *   /skill clear                    CLEAR_ALL
 *   /skill clear <name>             CLEAR
 *
 * Decisions (the seeds leave them open):
 * - Whitespace: leading/trailing whitespace, tabs and runs of spaces are tolerated; CRLF becomes LF.
 *   The head (`/skill`, flags, name) is separated by any whitespace; the args may span lines.
 * - Case: the words `/skill`, `list` and `clear` match in any case (`/Skill` from an
 *   auto-capitalising keyboard works); skill names are matched as written (they are folder names).
 *   The flag is `--once` exactly, case-sensitive like every command-line flag (issue 15).
 * - `list` and `clear` are reserved: a skill of that name (in any case) could never be activated, so
 *   `isReservedSkillCommandWord` lets the skill validators refuse such names.
 * - `--once` is the flag wherever it stands as a whole token (issue 15: `/skill review do it --once`
 *   is one-shot with the args `do it`); it is taken out of the args with the whitespace before it.
 *   A token that merely contains it (`--oncex`, `x--once`, `"--once"`) or spells it otherwise
 *   (`--ONCE`) is not the flag: after the name it is args, like other `-x` tokens (args are data; a
 *   skill may want flags of its own). Given twice it is an error, not silently one.
 * - Before the name any other `-…` token is an unknown flag (a name never starts with `-`).
 * - `args` is the raw rest of the line (inner spacing preserved, trimmed), null when empty. `list`
 *   takes nothing after it, `clear` at most one name; anything more is an error, not silently dropped.
 */
export type SkillCommand =
  | { readonly kind: 'ACTIVATE'; readonly skill: string; readonly once: boolean; readonly args: string | null }
  | { readonly kind: 'LIST' }
  | { readonly kind: 'CLEAR_ALL' }
  | { readonly kind: 'CLEAR'; readonly skill: string };

export type SkillCommandKind = SkillCommand['kind'];

export const SKILL_COMMAND_USAGE =
  'Use /skill <name> [args…], /skill <name> --once [args…], /skill list, /skill clear or /skill clear <name>.';

export const RESERVED_SKILL_COMMAND_WORDS = ['list', 'clear'] as const;

/** True for names `/skill <name>` cannot activate because they are sub-commands (any case). */
export function isReservedSkillCommandWord(name: string): boolean {
  return (RESERVED_SKILL_COMMAND_WORDS as readonly string[]).includes(name.toLowerCase());
}

export class InvalidSkillCommandError extends InvalidInputError {
  constructor(readonly line: string, problem: string) {
    super('INVALID_SKILL_COMMAND', `${problem}. ${SKILL_COMMAND_USAGE}`, 'line');
  }
}

const ONCE = '--once';
const MAX_SHOWN = 60;

export function parseSkillCommand(line: string): SkillCommand {
  if (typeof line !== 'string') throw new InvalidSkillCommandError(String(line), 'Not a /skill command');
  const normalised = line.replace(/\r\n?/g, '\n').trim();
  const head = /^\/skill(?=\s|$)/i.exec(normalised);
  if (!head) throw new InvalidSkillCommandError(line, `Not a /skill command: '${shorten(normalised)}'`);
  const { text, once } = takeOnceFlag(line, normalised, head[0].length);

  const scanner = new Scanner(text, head[0].length);
  const word = scanner.next();
  if (word !== null && word.startsWith('-')) {
    const hint = word.toLowerCase() === ONCE ? ' (lower case)' : '';
    throw new InvalidSkillCommandError(line, `Unknown flag '${shorten(word)}' before the skill name; the only flag is --once${hint}`);
  }
  if (word === null) throw new InvalidSkillCommandError(line, once ? "'/skill --once' needs a skill name" : "'/skill' needs a skill name or list/clear");

  const keyword = word.toLowerCase();
  if (keyword === 'list' || keyword === 'clear') {
    if (once) throw new InvalidSkillCommandError(line, `'--once' only applies to activation, not to '/skill ${keyword}'`);
    return keyword === 'list' ? parseList(line, scanner) : parseClear(line, scanner);
  }

  const skill = checkName(line, word);
  const args = scanner.rest();
  return { kind: 'ACTIVATE', skill, once, args: args === '' ? null : args };
}

/**
 * The line without its `--once` token (a whole whitespace-delimited token, exact spelling) and the
 * whitespace before it — or after it, where nothing precedes it — so the args keep their own spacing.
 */
function takeOnceFlag(line: string, text: string, from: number): { text: string; once: boolean } {
  const tokens = /\S+/g;
  tokens.lastIndex = from;
  const found: number[] = [];
  for (let match = tokens.exec(text); match; match = tokens.exec(text)) if (match[0] === ONCE) found.push(match.index);
  if (found.length === 0) return { text, once: false };
  if (found.length > 1) throw new InvalidSkillCommandError(line, "'--once' is given twice");
  const start = found[0]!;
  const end = start + ONCE.length;
  const before = text.slice(from, start);
  if (before.trim() !== '') return { text: text.slice(0, from) + before.trimEnd() + text.slice(end), once: true };
  return { text: text.slice(0, start) + text.slice(end).trimStart(), once: true };
}

function parseList(line: string, scanner: Scanner): SkillCommand {
  const extra = scanner.rest();
  if (extra !== '') throw new InvalidSkillCommandError(line, `'/skill list' takes no arguments, got '${shorten(extra)}'`);
  return { kind: 'LIST' };
}

function parseClear(line: string, scanner: Scanner): SkillCommand {
  const name = scanner.next();
  if (name === null) return { kind: 'CLEAR_ALL' };
  const extra = scanner.rest();
  if (extra !== '') throw new InvalidSkillCommandError(line, `'/skill clear' takes at most one skill name, got '${shorten(extra)}' after '${shorten(name)}'`);
  if (name.startsWith('-')) throw new InvalidSkillCommandError(line, `'/skill clear' takes no flags, got '${shorten(name)}'`);
  return { kind: 'CLEAR', skill: checkName(line, name) };
}

function checkName(line: string, name: string): string {
  const problem = skillNameProblem(name);
  if (problem !== null) throw new InvalidSkillCommandError(line, `Invalid skill name '${shorten(name)}': ${problem}`);
  return name;
}

function shorten(text: string): string {
  return text.length <= MAX_SHOWN ? text : `${text.slice(0, MAX_SHOWN)}…`;
}

/** Whitespace-delimited words over the normalised line, remembering where the unread rest starts. */
class Scanner {
  constructor(private readonly text: string, public position: number) {}

  next(): string | null {
    const match = /\S+/g;
    match.lastIndex = this.position;
    const found = match.exec(this.text);
    if (!found) {
      this.position = this.text.length;
      return null;
    }
    this.position = found.index + found[0].length;
    return found[0];
  }

  rest(): string {
    return this.text.slice(this.position).trim();
  }
}
