import { parseBooleanish } from '../shared/booleanish';
import { describeValue, fieldName, type FrontmatterReader, type YamlPath } from './frontmatter-reader';
import { ARGUMENT_TYPES, type SkillArgument, type SkillArgumentType, type SkillArguments } from './skill';

/**
 * `arguments:` (seed 000 §2b) and the one parameter schema it shares with `scripts[].params`
 * (seed 000 §13.7: "one schema, no second dialect"): `name`, `type` (default `string` in both
 * places — one schema), `description`, `required` (booleanish, default false).
 *
 * `type` is one of the six JSON Schema type names exactly as seed 000 §2b/§13.7 list them, lower
 * case: the declaration becomes a tool's JSON Schema (§13.7), where `Integer` is no type. Another
 * spelling is an error with the listed word it resembles (issue 15: it was lower-cased silently).
 *
 * Outside the seed's `true | false | List<SkillArgument>`, and still read, for Claude Code skills
 * (whose `arguments` is a name list or one string of names): one string of names (`arguments: issue
 * branch`) and bare names in the list (`- issue`), each a `string` argument. Each is a warning at its
 * line saying how it was read (issue 15: they loaded without a word) — a warning, not an error,
 * because the document can mean only that; Claude Code skills keep loading.
 */
const ARGUMENT_KEYS = ['name', 'type', 'description', 'required'];
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** The raw view (`args.text`, `args.words`) is always bound when a skill consumes arguments (seed 000 §2b). */
const RESERVED_ARGUMENT_NAMES = ['text', 'words'];

export function readArguments(reader: FrontmatterReader, value: unknown): SkillArguments {
  const at = ['arguments'];
  if (value === null || value === undefined) return { mode: 'NONE' };
  const flag = parseBooleanish(value);
  if (flag !== undefined) return flag ? { mode: 'RAW' } : { mode: 'NONE' };
  if (typeof value === 'string') {
    const names = value.split(/[\s,]+/).filter((n) => n !== '');
    const quoted = names.map((n) => `'${n}'`).join(', ');
    reader.warning(at, `\`arguments\` is text, read as the argument ${names.length === 1 ? 'name' : 'names'} ${quoted}. Write \`true\`, \`false\` or a list of arguments (\`- name: ${names[0] ?? 'scope'}\`).`);
    return { mode: 'NAMED', list: readParamList(reader, at, names, { reserved: true, bareNamesAt: at }) };
  }
  if (!Array.isArray(value)) {
    reader.error(at, `\`arguments\` must be true, false or a list of arguments ({name, type, description, required}), found ${describeValue(value)}.`);
    return { mode: 'NONE' };
  }
  return { mode: 'NAMED', list: readParamList(reader, at, value, { reserved: true }) };
}

interface ParamListOptions {
  /** Refuse `text` and `words` (skill arguments only; script params have no raw view). */
  readonly reserved: boolean;
  /** Set when the names came from one string: report every problem at that string. */
  readonly bareNamesAt?: YamlPath;
}

export function readParamList(reader: FrontmatterReader, at: YamlPath, entries: readonly unknown[], options: ParamListOptions): SkillArgument[] {
  const result: SkillArgument[] = [];
  const seen = new Map<string, number>();
  entries.forEach((entry, index) => {
    const entryAt = options.bareNamesAt ?? [...at, index];
    const parsed = readParam(reader, entryAt, entry, options.bareNamesAt === undefined);
    if (!parsed) return;
    const nameAt = typeof entry === 'string' || options.bareNamesAt ? entryAt : [...entryAt, 'name'];
    const first = seen.get(parsed.name);
    if (first !== undefined) {
      reader.error(nameAt, `Duplicate name '${parsed.name}' in \`${fieldName(at)}\` (also entry ${first}); names must be unique.`);
      return;
    }
    if (options.reserved && RESERVED_ARGUMENT_NAMES.includes(parsed.name)) {
      reader.error(nameAt, `Argument name '${parsed.name}' is reserved: \`args.${parsed.name}\` is the raw view of the invocation line. Choose another name.`);
      return;
    }
    seen.set(parsed.name, index);
    result.push(parsed);
  });
  return result;
}

function readParam(reader: FrontmatterReader, at: YamlPath, entry: unknown, warnBare: boolean): SkillArgument | undefined {
  if (typeof entry === 'string') {
    const name = checkName(reader, at, entry.trim());
    if (name === undefined) return undefined;
    if (warnBare) reader.warning(at, `\`${fieldName(at)}\` is a bare name, read as the string argument '${name}'. Write it as a map: \`- name: ${name}\`.`);
    return { name, type: 'string', description: null, required: false };
  }
  const map = reader.map(at, entry);
  if (!map) return undefined;
  reader.unknownKeys(at, map, ARGUMENT_KEYS);
  const rawName = reader.requiredText([...at, 'name'], map.name);
  const name = rawName === undefined ? undefined : checkName(reader, [...at, 'name'], rawName);
  const type = readType(reader, [...at, 'type'], map.type);
  const description = reader.optionalText([...at, 'description'], map.description);
  const required = reader.booleanish([...at, 'required'], map.required, false);
  if (name === undefined || type === undefined) return undefined;
  return { name, type, description, required };
}

/** Exactly one of ARGUMENT_TYPES (surrounding spaces aside); default `string`. */
function readType(reader: FrontmatterReader, at: YamlPath, value: unknown): SkillArgumentType | undefined {
  if (value === null || value === undefined) return 'string';
  const text = typeof value === 'string' ? value.trim() : undefined;
  const exact = ARGUMENT_TYPES.find((type) => type === text);
  if (exact) return exact;
  const meant = text === undefined ? undefined : ARGUMENT_TYPES.find((type) => type === text.toLowerCase());
  const shown = text === undefined ? describeValue(value) : `the text '${text}'`;
  reader.error(at, `\`${fieldName(at)}\` must be one of ${ARGUMENT_TYPES.join(', ')} (JSON Schema type names, lower case), found ${shown}.${meant ? ` Did you mean \`${meant}\`?` : ''}`);
  return undefined;
}

function checkName(reader: FrontmatterReader, at: YamlPath, name: string): string | undefined {
  if (!ARGUMENT_NAME.test(name)) {
    reader.error(at, `Invalid name '${name}' in \`${fieldName(at)}\`: use letters, digits, '_' and '-', starting with a letter or '_'.`);
    return undefined;
  }
  if (name.includes('-')) {
    reader.warning(at, `Name '${name}' contains '-': in a template \`args.${name}\` is a subtraction; write \`args['${name}']\` or rename it with '_'.`);
  }
  return name;
}
