import { DomainError } from '../errors';
import { parseBooleanish } from '../shared/booleanish';
import type { SkillArgument, SkillArguments, SkillArgumentType } from '../skills/skill';

/**
 * Binding the rest of a `/skill <name> …` line to the skill's `arguments:` (seed 000 §2b). Pure and
 * cheap, so it runs freshly per turn against the current declaration (no cached map).
 *
 * - NONE (`arguments:` missing or false): the skill does not consume the text — the caller injects it
 *   as a user message — so nothing is bound: `args` is null and the template context has no `args`
 *   (issue 15: it had an empty `{text: '', words: []}`, so `{% if args %}` held for every skill).
 * - RAW (`true`): `args.text` (the whole rest, CRLF → LF, trimmed) and `args.words` (its tokens).
 * - NAMED (a list): the raw view plus one entry per declared argument, bound positionally.
 *
 * Positional binding (shell convention):
 * - Tokens are runs of non-whitespace. Quotes are ordinary characters (no quoting dialect in v1; the
 *   greedy last argument covers multi-word text, seed 000 §15).
 * - Each declared argument takes one token, in declaration order. The LAST declared argument, when it
 *   is of type string, binds the rest greedily: the remaining raw text, spacing and newlines preserved.
 * - An object/array argument whose token starts with `{` / `[` takes the balanced JSON span even
 *   across whitespace (`{"env": "prod"}` is one value); `args.words` stays the plain whitespace split.
 * - Typed values: integer = optional sign and digits only (`-3`; not `1.5`, `1e3`, or beyond ±2^53);
 *   number = a decimal literal with optional exponent (no hex, NaN, Infinity); boolean = the DESIGN §10
 *   spellings true/false, yes/no, on/off, 1/0 in any case; object/array = JSON of that shape;
 *   string = the token as written.
 * - A missing token for a required argument → SKILL_ARGUMENT_MISSING; an optional one stays unset (no
 *   key; renders empty). A bad typed value → SKILL_ARGUMENT_INVALID. Excess tokens are not an error.
 * - Arguments are data only: nothing is evaluated, and the result is meant for the render context,
 *   never the template source. Keys are defined as own properties (an argument named `__proto__` is
 *   a plain key); a declared `text` / `words` (refused by the skill parser) never shadows the raw view.
 */
export interface BoundArgs {
  readonly text: string;
  readonly words: readonly string[];
  readonly [name: string]: unknown;
}

export interface BoundSkillArguments {
  /** null: the skill consumes no arguments (NONE). */
  readonly args: BoundArgs | null;
}

export type SkillArgumentErrorCode = 'SKILL_ARGUMENT_INVALID' | 'SKILL_ARGUMENT_MISSING';

export class SkillArgumentError extends DomainError {
  readonly category = 'BAD_INPUT';
  constructor(
    readonly code: SkillArgumentErrorCode,
    readonly skill: string,
    readonly argument: string,
    message: string,
  ) {
    super(message, [{ message, severity: 'ERROR', field: 'args' }]);
  }
}

/** Whether the skill consumes the rest of the line; if not, it becomes a user message (seed 000 §2b). */
export function consumesArguments(declaration: SkillArguments): boolean {
  return declaration.mode !== 'NONE';
}

const RAW_VIEW_KEYS = new Set(['text', 'words']);
const MAX_SHOWN = 80;

export function bindSkillArguments(
  skill: { readonly name: string; readonly arguments: SkillArguments },
  raw: string | null,
): BoundSkillArguments {
  const declaration = skill.arguments;
  if (declaration.mode === 'NONE') return { args: null };
  const text = (raw ?? '').replace(/\r\n?/g, '\n').trim();
  const words = text === '' ? [] : text.split(/\s+/);
  if (declaration.mode === 'RAW') return { args: { text, words } };

  const entries: [string, unknown][] = [];
  let cursor = 0;
  declaration.list.forEach((argument, index) => {
    cursor = skipSpace(text, cursor);
    if (cursor >= text.length) {
      if (argument.required) throw missing(skill.name, argument);
      return;
    }
    const last = index === declaration.list.length - 1;
    let token: string;
    if (last && argument.type === 'string') {
      token = text.slice(cursor);
      cursor = text.length;
    } else {
      const end = tokenEnd(text, cursor, argument.type);
      token = text.slice(cursor, end);
      cursor = end;
    }
    const value = convert(skill.name, argument, token);
    if (!RAW_VIEW_KEYS.has(argument.name)) entries.push([argument.name, value]);
  });
  return { args: { ...Object.fromEntries(entries), text, words } };
}

function skipSpace(text: string, from: number): number {
  const re = /\S/g;
  re.lastIndex = from;
  const found = re.exec(text);
  return found ? found.index : text.length;
}

function wordEnd(text: string, from: number): number {
  const re = /\s/g;
  re.lastIndex = from;
  const found = re.exec(text);
  return found ? found.index : text.length;
}

function tokenEnd(text: string, from: number, type: SkillArgumentType): number {
  if (type === 'object' || type === 'array') {
    const end = jsonSpanEnd(text, from);
    if (end !== null && (end === text.length || /\s/.test(text.charAt(end)))) return end;
  }
  return wordEnd(text, from);
}

/** The end (exclusive) of the bracket-balanced span starting at `{` / `[`, strings respected; null if unbalanced. */
function jsonSpanEnd(text: string, from: number): number | null {
  const open = text.charAt(from);
  if (open !== '{' && open !== '[') return null;
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text.charAt(i);
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return null;
}

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function convert(skill: string, argument: SkillArgument, token: string): unknown {
  switch (argument.type) {
    case 'string':
      return token;
    case 'integer': {
      const value = INTEGER.test(token) ? Number(token) : NaN;
      if (Number.isSafeInteger(value)) return value === 0 ? 0 : value; // no -0
      break;
    }
    case 'number': {
      const value = NUMBER.test(token) ? Number(token) : NaN;
      if (Number.isFinite(value)) return value === 0 ? 0 : value;
      break;
    }
    case 'boolean': {
      const value = parseBooleanish(token);
      if (value !== undefined) return value;
      break;
    }
    case 'object': {
      const value = parseJson(token);
      if (value !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
      break;
    }
    case 'array': {
      const value = parseJson(token);
      if (Array.isArray(value)) return value;
      break;
    }
  }
  throw invalid(skill, argument, token);
}

function parseJson(token: string): unknown {
  try {
    return JSON.parse(token) as unknown;
  } catch {
    return undefined;
  }
}

function missing(skill: string, argument: SkillArgument): SkillArgumentError {
  return new SkillArgumentError('SKILL_ARGUMENT_MISSING', skill, argument.name, `Skill '${skill}' requires argument '${argument.name}'`);
}

function invalid(skill: string, argument: SkillArgument, token: string): SkillArgumentError {
  const shown = token.length <= MAX_SHOWN ? token : `${token.slice(0, MAX_SHOWN)}…`;
  return new SkillArgumentError(
    'SKILL_ARGUMENT_INVALID',
    skill,
    argument.name,
    `Skill '${skill}': argument '${argument.name}' must be ${argument.type}, got '${shown}'`,
  );
}
