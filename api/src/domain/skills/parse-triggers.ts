import { describeValue, fieldName, type FrontmatterReader, type YamlPath } from './frontmatter-reader';
import { backtrackingWarning, type BacktrackingAnalyser } from './backtracking-analyser';
import { compileJavaRegex } from './java-regex';
import { TRIGGER_TYPES, type SkillTrigger, type SkillTriggerType } from './skill';

/**
 * `triggers:` and `secondaryTriggers:` (seed 000 §2 SkillTrigger, §4a; seed 003 lorebook entries),
 * always a list (a single value is an ERROR, issue 15), whose entries are
 * - a map: PATTERN with a Java-flavoured regex compiled once here, KEYWORDS with a keyword list and
 *   the optional `minMatch` of DESIGN §10;
 * - a plain string entry (lorebook style): `/source/flags` is a regex (flags i, s, m, u; g and y are
 *   meaningless for a search and ignored; `i` keeps it case-insensitive even under
 *   `caseSensitive: true`), anything else one keyword (a KEYWORDS trigger of one keyword).
 * Every regex is compiled for RE2 (java-regex.ts, issue 13): matching is linear in the text, and a
 * construct RE2 cannot run (backreference, lookaround) is an ERROR at the pattern. With a
 * BacktrackingAnalyser (save time only), a pattern that would backtrack exponentially or
 * polynomially on a backtracking engine gets a WARNING. Validation only; matching lives with the
 * trigger matcher.
 */
const TRIGGER_KEYS = ['type', 'pattern', 'keywords', 'minMatch'];
const SLASH_REGEX = /^\/([\s\S]+)\/([a-z]*)$/;

export interface TriggerReadOptions {
  /** false: keywords match as substrings, so a one-letter keyword can match (no "never matches" warning). */
  readonly matchWholeWords: boolean;
  /** true: `Sword` and `sword` are two keywords. */
  readonly caseSensitive: boolean;
  /** Save-time advice on backtracking shapes; absent where skills are loaded for a turn. */
  readonly analyser?: BacktrackingAnalyser;
}

export function readTriggers(reader: FrontmatterReader, value: unknown, options: TriggerReadOptions = { matchWholeWords: true, caseSensitive: false }, key = 'triggers'): SkillTrigger[] {
  // Seed 000 §2: a list. A single word used to become a keyword silently (issue 15); say how to write it.
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    const text = String(value).trim();
    reader.error([key], `\`${key}\` must be a list of triggers, found ${describeValue(value)}; write \`${key}: [${text}]\` for one keyword or pattern, or a list of \`- type: KEYWORDS\` / \`- type: PATTERN\` entries.`);
    return [];
  }
  const entries = reader.list([key], value) ?? [];
  const triggers: SkillTrigger[] = [];
  entries.forEach((entry, index) => {
    const trigger = readTrigger(reader, [key, index], entry, options);
    if (trigger) triggers.push(trigger);
  });
  return triggers;
}

function readTrigger(reader: FrontmatterReader, at: YamlPath, entry: unknown, options: TriggerReadOptions): SkillTrigger | undefined {
  if (typeof entry === 'string' || typeof entry === 'number') return readPlainEntry(reader, at, String(entry).trim(), options);
  const map = reader.map(at, entry);
  if (!map) return undefined;
  reader.unknownKeys(at, map, TRIGGER_KEYS);
  const type = triggerType(reader, at, map);
  if (type === 'PATTERN') {
    if (map.keywords !== undefined) reader.warning([...at, 'keywords'], '`keywords` is ignored on a PATTERN trigger; use a separate KEYWORDS trigger.');
    if (map.minMatch !== undefined) reader.warning([...at, 'minMatch'], '`minMatch` only applies to KEYWORDS triggers and is ignored here.');
    return readPattern(reader, at, map.pattern, options.analyser);
  }
  if (type === 'KEYWORDS') {
    if (map.pattern !== undefined) reader.warning([...at, 'pattern'], '`pattern` is ignored on a KEYWORDS trigger; use a separate PATTERN trigger.');
    return readKeywords(reader, at, map, options);
  }
  return undefined;
}

/** A lorebook-style entry: `/regex/flags` or one keyword. */
function readPlainEntry(reader: FrontmatterReader, at: YamlPath, text: string, options: TriggerReadOptions): SkillTrigger | undefined {
  if (text === '') {
    reader.error(at, `\`${fieldName(at)}\` is empty; remove the entry or fill it in.`);
    return undefined;
  }
  const slash = SLASH_REGEX.exec(text);
  if (!slash) return readKeywords(reader, at, { keywords: text }, options, at);
  const flags = slash[2]!;
  const unknown = [...flags].find((f) => !'gimsuy'.includes(f));
  if (unknown !== undefined) {
    reader.error(at, `\`${fieldName(at)}\` has the regex flag '${unknown}'; a trigger regex takes i, s, m or u.`);
    return undefined;
  }
  const inline = [...flags].filter((f) => f === 's' || f === 'm').join('');
  const trigger = compilePattern(reader, at, slash[1]!, inline ? `(?${inline})${slash[1]!}` : slash[1]!, options.analyser);
  if (trigger?.type !== 'PATTERN' || !flags.includes('i')) return trigger;
  return { ...trigger, ignoreCase: true };
}

function triggerType(reader: FrontmatterReader, at: YamlPath, map: Readonly<Record<string, unknown>>): SkillTriggerType | undefined {
  if (map.type !== undefined && map.type !== null) return reader.choice([...at, 'type'], map.type, TRIGGER_TYPES, 'PATTERN');
  const inferred: SkillTriggerType | undefined = map.pattern !== undefined ? 'PATTERN' : map.keywords !== undefined ? 'KEYWORDS' : undefined;
  if (inferred) {
    reader.warning(at, `\`${fieldName(at)}\` has no \`type\`; read as ${inferred}. Add \`type: ${inferred}\`.`);
  } else {
    reader.error(at, `\`${fieldName(at)}\` needs \`type: PATTERN\` with \`pattern\`, or \`type: KEYWORDS\` with \`keywords\`.`);
  }
  return inferred;
}

function readPattern(reader: FrontmatterReader, at: YamlPath, value: unknown, analyser: BacktrackingAnalyser | undefined): SkillTrigger | undefined {
  const patternAt = [...at, 'pattern'];
  if (typeof value !== 'string' || value.trim() === '') {
    reader.error(patternAt, `A PATTERN trigger needs \`pattern\`, a non-empty regular expression${value === undefined ? '' : `; found ${describeValue(value)}`}.`);
    return undefined;
  }
  return compilePattern(reader, patternAt, value, value, analyser);
}

function compilePattern(reader: FrontmatterReader, at: YamlPath, pattern: string, source: string, analyser: BacktrackingAnalyser | undefined): SkillTrigger | undefined {
  const compiled = compileJavaRegex(source);
  if (!compiled.ok) {
    const where = compiled.index === null ? '' : ` (at character ${compiled.index + 1} of the pattern)`;
    reader.error(at, `\`${fieldName(at)}\` is not a usable regular expression${where}: ${compiled.message}${compiled.message.endsWith('.') ? '' : '.'}`);
    return undefined;
  }
  const verdict = analyser?.analyse(compiled.regex.analysis);
  if (verdict?.kind === 'EXPONENTIAL' || verdict?.kind === 'POLYNOMIAL') reader.warning(at, `\`${fieldName(at)}\` ${backtrackingWarning(verdict)}`);
  return { type: 'PATTERN', pattern, regex: compiled.regex };
}

function readKeywords(reader: FrontmatterReader, at: YamlPath, map: Readonly<Record<string, unknown>>, options: TriggerReadOptions, keywordsAt: YamlPath = [...at, 'keywords']): SkillTrigger | undefined {
  const keywords: string[] = [];
  const seen = new Set<string>();
  for (const { value: keyword, at: entryAt } of reader.stringEntries(keywordsAt, map.keywords)) {
    const key = options.caseSensitive ? keyword : keyword.toLowerCase();
    if (seen.has(key)) {
      reader.warning(entryAt, `Keyword '${keyword}' is listed twice; it counts once.`);
      continue;
    }
    seen.add(key);
    keywords.push(keyword);
    // DESIGN §10: tokens shorter than two characters are dropped, so such a keyword can never occur.
    if (options.matchWholeWords && keywordTokens(keyword).length === 0) reader.warning(entryAt, `Keyword '${keyword}' has no word of two or more letters or digits and can never match.`);
  }
  if (keywords.length === 0) {
    if (map.keywords === undefined || (Array.isArray(map.keywords) && map.keywords.length === 0)) {
      reader.error(keywordsAt, 'A KEYWORDS trigger needs `keywords`, a non-empty list of words or phrases.');
    }
    return undefined;
  }
  const minMatch = readMinMatch(reader, [...at, 'minMatch'], map.minMatch, keywords.length);
  if (minMatch === undefined) return undefined;
  return { type: 'KEYWORDS', keywords, minMatch };
}

function readMinMatch(reader: FrontmatterReader, at: YamlPath, value: unknown, distinct: number): number | null | undefined {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    reader.error(at, `\`${fieldName(at)}\` must be a whole number of at least 1 (how many keywords must occur), found ${describeValue(value)}.`);
    return undefined;
  }
  if (value > distinct) reader.warning(at, `\`minMatch: ${value}\` exceeds the ${distinct} distinct keyword(s); it is capped at ${distinct}.`);
  return value;
}

/** DESIGN §10 tokenisation, for the "can never match" check only. */
function keywordTokens(keyword: string): string[] {
  return keyword.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((token) => token.length >= 2);
}
