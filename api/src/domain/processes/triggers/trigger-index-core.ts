import type { AvailableSkill } from '../../skills/skill-resolver';
import { LiteralScanner } from './literal-scanner';
import { requiredLiterals } from './required-literals';
import { distinctKeywords } from './tokenize';
import { canAutoTrigger, keywordThreshold } from './trigger-match';

/**
 * The immutable part of a TriggerIndex (trigger-index.ts): built once from a skill list, shared by
 * every list that holds the same parsed skills (TriggerIndexCache). Trigger ids are positions in
 * `triggers`; a skill's triggers are consecutive, in declaration order, from `firstTrigger[skill]`.
 * Keyword ids are global: trigger t's distinct keywords are `firstKeyword .. firstKeyword + n - 1`.
 */
export interface TriggerEntry {
  readonly skill: number;
  /** Index into the skill's `triggers`. */
  readonly index: number;
  /** KEYWORDS only: keywords as written (distinct), their global ids start at `firstKeyword`. */
  readonly keywords: readonly string[];
  readonly firstKeyword: number;
  readonly threshold: number;
  readonly regex: RegExp | null;
  readonly pattern: string;
}

export interface PhrasePosting {
  readonly trigger: number;
  /** Global keyword id. */
  readonly keyword: number;
  /** The phrase's tokens after the first. */
  readonly rest: readonly string[];
}

export interface TokenPostings {
  /** Dense id, for per-message "seen" stamps without a Set. */
  readonly id: number;
  /** One-word keywords starting (and ending) here, as pairs (trigger, global keyword id). */
  readonly words: Int32Array;
  readonly phrases: readonly PhrasePosting[];
}

/** The part of an index that depends only on the parsed skills, shared by every list holding them. */
export interface TriggerIndexCore {
  /** The parsed skill objects, by position: the identity the cache compares. */
  readonly parsed: readonly object[];
  readonly positions: ReadonlyMap<string, number>;
  /** Position → the id of the skill's first trigger entry (its triggers are consecutive), or -1. */
  readonly firstTrigger: Int32Array;
  readonly triggers: readonly TriggerEntry[];
  /** Per trigger: distinct keywords needed (1 for PATTERN). */
  readonly thresholds: Int32Array;
  readonly postings: ReadonlyMap<string, TokenPostings>;
  readonly scanner: LiteralScanner | null;
  /** Literal id → the PATTERN triggers that need it. */
  readonly literalTriggers: readonly (readonly number[])[];
  /** PATTERN triggers without an extractable literal: they run on every message. */
  readonly alwaysRun: readonly number[];
  readonly keywordCount: number;
  readonly stats: TriggerIndexStats;
}

export interface TriggerIndexStats {
  readonly skills: number;
  /** Skills that can auto-trigger at all (static filters). */
  readonly candidates: number;
  readonly keywordTriggers: number;
  readonly patternTriggers: number;
  /** PATTERN triggers that always run (no required literal). */
  readonly unfilteredPatterns: number;
  readonly distinctTokens: number;
}

export function buildTriggerIndexCore(skills: readonly AvailableSkill[]): TriggerIndexCore {
  const positions = new Map<string, number>();
  const firstTrigger = new Int32Array(skills.length).fill(-1);
  const triggers: TriggerEntry[] = [];
  const words = new Map<string, number[]>();
  const phrases = new Map<string, PhrasePosting[]>();
  const literalIds = new Map<string, number>();
  const literalTriggers: number[][] = [];
  const alwaysRun: number[] = [];
  let keywordCount = 0;
  let candidates = 0;
  let keywordTriggers = 0;
  skills.forEach((available, position) => {
    if (!positions.has(available.name)) positions.set(available.name, position);
    if (!canAutoTrigger(available)) return;
    candidates++;
    firstTrigger[position] = triggers.length;
    available.skill.triggers.forEach((trigger, index) => {
      const id = triggers.length;
      if (trigger.type === 'KEYWORDS') {
        keywordTriggers++;
        const keywords = distinctKeywords(trigger.keywords);
        const threshold = keywordThreshold(keywords.length, trigger.minMatch);
        triggers.push({ skill: position, index, keywords: keywords.map((k) => k.written), firstKeyword: keywordCount, threshold, regex: null, pattern: '' });
        keywords.forEach((keyword, k) => {
          const [first, ...rest] = keyword.tokens;
          if (first === undefined || threshold < 1) return;
          const global = keywordCount + k;
          if (rest.length === 0) push(words, first, id, global);
          else push(phrases, first, { trigger: id, keyword: global, rest });
        });
        keywordCount += keywords.length;
        return;
      }
      triggers.push({ skill: position, index, keywords: [], firstKeyword: keywordCount, threshold: 1, regex: trigger.regex, pattern: trigger.pattern });
      const literals = requiredLiterals(trigger.regex);
      if (!literals) {
        alwaysRun.push(id);
        return;
      }
      for (const literal of literals) {
        let literalId = literalIds.get(literal);
        if (literalId === undefined) {
          literalIds.set(literal, (literalId = literalTriggers.length));
          literalTriggers.push([]);
        }
        literalTriggers[literalId]!.push(id);
      }
    });
  });
  const patternTriggers = triggers.length - keywordTriggers;
  const postings = new Map<string, TokenPostings>();
  for (const token of new Set([...words.keys(), ...phrases.keys()])) {
    postings.set(token, { id: postings.size, words: Int32Array.from(words.get(token) ?? []), phrases: phrases.get(token) ?? [] });
  }
  return {
    parsed: skills.map((s) => s.skill),
    positions,
    firstTrigger,
    triggers,
    thresholds: Int32Array.from(triggers, (t) => t.threshold),
    postings,
    scanner: literalIds.size > 0 ? new LiteralScanner([...literalIds.keys()]) : null,
    literalTriggers,
    alwaysRun,
    keywordCount,
    stats: { skills: skills.length, candidates, keywordTriggers, patternTriggers, unfilteredPatterns: alwaysRun.length, distinctTokens: postings.size },
  };
}

function push<T>(map: Map<string, T[]>, key: string, ...values: T[]): void {
  const list = map.get(key);
  if (list) list.push(...values);
  else map.set(key, values);
}
