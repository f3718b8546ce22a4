import { describeValue, fieldName, type FrontmatterReader, type YamlPath } from './frontmatter-reader';
import { compileJavaRegex } from './java-regex';
import { TRIGGER_TYPES, type SkillTrigger, type SkillTriggerType } from './skill';

/**
 * `triggers:` (seed 000 §2 SkillTrigger, §4a): PATTERN with a Java-flavoured regex compiled once
 * here, KEYWORDS with a keyword list and the optional `minMatch` of DESIGN §10. Validation only;
 * matching lives with the trigger matcher.
 */
const TRIGGER_KEYS = ['type', 'pattern', 'keywords', 'minMatch'];

export function readTriggers(reader: FrontmatterReader, value: unknown): SkillTrigger[] {
  const entries = reader.list(['triggers'], value) ?? [];
  const triggers: SkillTrigger[] = [];
  entries.forEach((entry, index) => {
    const trigger = readTrigger(reader, ['triggers', index], entry);
    if (trigger) triggers.push(trigger);
  });
  return triggers;
}

function readTrigger(reader: FrontmatterReader, at: YamlPath, entry: unknown): SkillTrigger | undefined {
  const map = reader.map(at, entry);
  if (!map) return undefined;
  reader.unknownKeys(at, map, TRIGGER_KEYS);
  const type = triggerType(reader, at, map);
  if (type === 'PATTERN') {
    if (map.keywords !== undefined) reader.warning([...at, 'keywords'], '`keywords` is ignored on a PATTERN trigger; use a separate KEYWORDS trigger.');
    if (map.minMatch !== undefined) reader.warning([...at, 'minMatch'], '`minMatch` only applies to KEYWORDS triggers and is ignored here.');
    return readPattern(reader, at, map.pattern);
  }
  if (type === 'KEYWORDS') {
    if (map.pattern !== undefined) reader.warning([...at, 'pattern'], '`pattern` is ignored on a KEYWORDS trigger; use a separate PATTERN trigger.');
    return readKeywords(reader, at, map);
  }
  return undefined;
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

function readPattern(reader: FrontmatterReader, at: YamlPath, value: unknown): SkillTrigger | undefined {
  const patternAt = [...at, 'pattern'];
  if (typeof value !== 'string' || value.trim() === '') {
    reader.error(patternAt, `A PATTERN trigger needs \`pattern\`, a non-empty regular expression${value === undefined ? '' : `; found ${describeValue(value)}`}.`);
    return undefined;
  }
  const compiled = compileJavaRegex(value);
  if (!compiled.ok) {
    reader.error(patternAt, `\`${fieldName(patternAt)}\` is not a usable regular expression: ${compiled.message} (at character ${compiled.index + 1} of the pattern).`);
    return undefined;
  }
  return { type: 'PATTERN', pattern: value, regex: compiled.regex };
}

function readKeywords(reader: FrontmatterReader, at: YamlPath, map: Readonly<Record<string, unknown>>): SkillTrigger | undefined {
  const keywordsAt = [...at, 'keywords'];
  const keywords: string[] = [];
  const seen = new Set<string>();
  for (const { value: keyword, at: entryAt } of reader.stringEntries(keywordsAt, map.keywords)) {
    if (seen.has(keyword.toLowerCase())) {
      reader.warning(entryAt, `Keyword '${keyword}' is listed twice; it counts once.`);
      continue;
    }
    seen.add(keyword.toLowerCase());
    keywords.push(keyword);
    // DESIGN §10: tokens shorter than two characters are dropped, so such a keyword can never occur.
    if (keywordTokens(keyword).length === 0) reader.warning(entryAt, `Keyword '${keyword}' has no word of two or more letters or digits and can never match.`);
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
