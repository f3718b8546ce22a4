import type { AvailableSkill } from '../../skills/skill-resolver';
import type { SkillTrigger } from '../../skills/skill';
import type { TriggerRegex } from '../../skills/trigger-regex';
import { LiteralScanner } from './literal-scanner';
import { requiredLiterals } from './required-literals';
import { distinctKeywords, type KeywordMode } from './tokenize';
import { canAutoTrigger, effectiveRegex, keywordThreshold } from './trigger-match';

/**
 * The immutable part of a TriggerIndex (trigger-index.ts): built once from a skill list, shared by
 * every list that holds the same parsed skills (TriggerIndexCache). Trigger ids are positions in
 * `triggers`; a skill's primary triggers are consecutive, in declaration order, from
 * `firstTrigger[skill]`, its secondary triggers from `firstSecondary[skill]`. Keyword ids are global:
 * trigger t's distinct keywords are `firstKeyword .. firstKeyword + n - 1`.
 *
 * Keywords are filed in one of four channels by the skill's controls (issue 8): whole tokens
 * lower-cased (today's KEYWORDS), whole tokens as written (`caseSensitive`), and substrings lower-cased
 * or as written (`matchWholeWords: false`, an Aho–Corasick scanner each).
 */
export interface TriggerEntry {
  readonly skill: number;
  /** Index into the skill's `triggers` (primary) or `activation.secondaryTriggers` (secondary). */
  readonly index: number;
  readonly secondary: boolean;
  /** KEYWORDS only: keywords as written (distinct), their global ids start at `firstKeyword`. */
  readonly keywords: readonly string[];
  readonly firstKeyword: number;
  readonly threshold: number;
  /** PATTERN only: the regex under the skill's controls, and whether it reads the text as written. */
  readonly regex: TriggerRegex | null;
  readonly cased: boolean;
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
  /** Dense id (over both token channels), for per-call "seen" stamps without a Set. */
  readonly id: number;
  /** One-word keywords starting (and ending) here, as pairs (trigger, global keyword id). */
  readonly words: Int32Array;
  readonly phrases: readonly PhrasePosting[];
}

/** Substring keywords of one case mode: the scanner and, per literal id, (trigger, keyword) pairs. */
export interface SubstringChannel {
  readonly scanner: LiteralScanner;
  readonly owners: readonly Int32Array[];
}

/** The part of an index that depends only on the parsed skills, shared by every list holding them. */
export interface TriggerIndexCore {
  /** The parsed skill objects, by position: the identity the cache compares. */
  readonly parsed: readonly object[];
  readonly positions: ReadonlyMap<string, number>;
  /** Position → the id of the skill's first trigger entry (its triggers are consecutive), or -1. */
  readonly firstTrigger: Int32Array;
  /** Position → the id of the skill's first secondary trigger entry, or -1 (none). */
  readonly firstSecondary: Int32Array;
  /** Position → scan depth (0 for skills that are not matched). */
  readonly depth: Int32Array;
  readonly triggers: readonly TriggerEntry[];
  /** Per trigger: distinct keywords needed (1 for PATTERN). */
  readonly thresholds: Int32Array;
  /** Per trigger: the scan depth of its skill. */
  readonly triggerDepth: Int32Array;
  /** Whole-token keywords: lower-cased tokens, and tokens as written. */
  readonly postings: ReadonlyMap<string, TokenPostings>;
  readonly postingsCased: ReadonlyMap<string, TokenPostings>;
  readonly substrings: SubstringChannel | null;
  readonly substringsCased: SubstringChannel | null;
  readonly scanner: LiteralScanner | null;
  /** Literal id → the primary PATTERN triggers that need it. */
  readonly literalTriggers: readonly (readonly number[])[];
  /** Primary PATTERN triggers without an extractable literal: they run on every scanned message. */
  readonly alwaysRun: readonly number[];
  readonly keywordCount: number;
  /** The deepest scan any matched skill asks for. */
  readonly maxDepth: number;
  readonly stats: TriggerIndexStats;
}

export interface TriggerIndexStats {
  readonly skills: number;
  /** Skills whose triggers are matched at all (static filters). */
  readonly candidates: number;
  readonly keywordTriggers: number;
  readonly patternTriggers: number;
  /** PATTERN triggers that always run (no required literal). */
  readonly unfilteredPatterns: number;
  readonly distinctTokens: number;
  readonly secondaryTriggers: number;
}

/** Work units (triggers filed, tokens posted) between two pauses of a cooperative build. */
export const BUILD_STEP_UNITS = 1_000;

class Builder {
  readonly triggers: TriggerEntry[] = [];
  readonly words = [new Map<string, number[]>(), new Map<string, number[]>()];
  readonly phrases = [new Map<string, PhrasePosting[]>(), new Map<string, PhrasePosting[]>()];
  readonly substrings = [new Map<string, number[]>(), new Map<string, number[]>()];
  readonly literalIds = new Map<string, number>();
  readonly literalTriggers: number[][] = [];
  readonly alwaysRun: number[] = [];
  keywordCount = 0;
  keywordTriggers = 0;

  add(position: number, index: number, trigger: SkillTrigger, skill: AvailableSkill, secondary: boolean): void {
    const id = this.triggers.length;
    const activation = skill.skill.activation;
    if (trigger.type === 'KEYWORDS') {
      this.keywordTriggers++;
      const mode: KeywordMode = { matchWholeWords: activation.matchWholeWords, caseSensitive: activation.caseSensitive };
      const keywords = distinctKeywords(trigger.keywords, mode);
      const threshold = keywordThreshold(keywords.length, trigger.minMatch);
      this.triggers.push({ skill: position, index, secondary, keywords: keywords.map((k) => k.written), firstKeyword: this.keywordCount, threshold, regex: null, cased: false, pattern: '' });
      const cased = mode.caseSensitive ? 1 : 0;
      keywords.forEach((keyword, k) => {
        const [first, ...rest] = keyword.tokens;
        if (first === undefined || threshold < 1) return;
        const global = this.keywordCount + k;
        if (!mode.matchWholeWords) push(this.substrings[cased]!, first, id, global);
        else if (rest.length === 0) push(this.words[cased]!, first, id, global);
        else push(this.phrases[cased]!, first, { trigger: id, keyword: global, rest });
      });
      this.keywordCount += keywords.length;
      return;
    }
    const { regex, cased } = effectiveRegex(trigger, activation);
    this.triggers.push({ skill: position, index, secondary, keywords: [], firstKeyword: this.keywordCount, threshold: 1, regex, cased, pattern: trigger.pattern });
    // Secondary regexes run only for skills whose primary triggers matched: no prefilter needed.
    if (secondary) return;
    // The literals of the case-insensitive regex: sound for its case-sensitive twin too, which matches less.
    const literals = requiredLiterals(trigger.regex);
    if (!literals) {
      this.alwaysRun.push(id);
      return;
    }
    for (const literal of literals) {
      let literalId = this.literalIds.get(literal);
      if (literalId === undefined) {
        this.literalIds.set(literal, (literalId = this.literalTriggers.length));
        this.literalTriggers.push([]);
      }
      this.literalTriggers[literalId]!.push(id);
    }
  }

  /** Token → postings per case channel; a step every BUILD_STEP_UNITS tokens. */
  *postings(): Generator<void, [Map<string, TokenPostings>, Map<string, TokenPostings>], void> {
    let nextId = 0;
    const maps: Map<string, TokenPostings>[] = [];
    for (let c = 0; c < 2; c++) {
      const map = new Map<string, TokenPostings>();
      const words = this.words[c]!;
      const phrases = this.phrases[c]!;
      for (const token of new Set([...words.keys(), ...phrases.keys()])) {
        map.set(token, { id: nextId++, words: Int32Array.from(words.get(token) ?? []), phrases: phrases.get(token) ?? [] });
        if (nextId % BUILD_STEP_UNITS === 0) yield;
      }
      maps.push(map);
    }
    return [maps[0]!, maps[1]!];
  }

  substringChannel(c: number): SubstringChannel | null {
    const map = this.substrings[c]!;
    if (map.size === 0) return null;
    return { scanner: new LiteralScanner([...map.keys()]), owners: [...map.values()].map((pairs) => Int32Array.from(pairs)) };
  }
}

/** Builds the core in one go (tests, benches, small sets). */
export function buildTriggerIndexCore(skills: readonly AvailableSkill[]): TriggerIndexCore {
  const steps = triggerIndexCoreSteps(skills);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * The build as steps of about BUILD_STEP_UNITS units each: a caller that awaits between them
 * (TriggerIndexCache.load) lets other requests run, so one scope's 20,000-trigger skill costs its
 * first turn a few dozen short tasks instead of one that every other tenant waits behind (issue 13).
 * A set below one step finishes without a pause.
 */
export function* triggerIndexCoreSteps(skills: readonly AvailableSkill[]): Generator<void, TriggerIndexCore, void> {
  const positions = new Map<string, number>();
  const firstTrigger = new Int32Array(skills.length).fill(-1);
  const firstSecondary = new Int32Array(skills.length).fill(-1);
  const depth = new Int32Array(skills.length);
  const b = new Builder();
  let candidates = 0;
  let secondaryTriggers = 0;
  let maxDepth = 0;
  let units = 0;
  for (let position = 0; position < skills.length; position++) {
    const available = skills[position]!;
    if (!positions.has(available.name)) positions.set(available.name, position);
    if (!canAutoTrigger(available)) continue;
    candidates++;
    const { triggers, activation } = available.skill;
    depth[position] = activation.scanDepth;
    maxDepth = Math.max(maxDepth, activation.scanDepth);
    firstTrigger[position] = b.triggers.length;
    for (let index = 0; index < triggers.length; index++) {
      b.add(position, index, triggers[index]!, available, false);
      if (++units % BUILD_STEP_UNITS === 0) yield;
    }
    if (activation.secondaryTriggers.length === 0) continue;
    firstSecondary[position] = b.triggers.length;
    secondaryTriggers += activation.secondaryTriggers.length;
    for (let index = 0; index < activation.secondaryTriggers.length; index++) {
      b.add(position, index, activation.secondaryTriggers[index]!, available, true);
      if (++units % BUILD_STEP_UNITS === 0) yield;
    }
  }
  const postings = yield* b.postings();
  const [lower, cased] = postings;
  const patternTriggers = b.triggers.length - b.keywordTriggers;
  return {
    parsed: skills.map((s) => s.skill),
    positions,
    firstTrigger,
    firstSecondary,
    depth,
    triggers: b.triggers,
    thresholds: Int32Array.from(b.triggers, (t) => t.threshold),
    triggerDepth: Int32Array.from(b.triggers, (t) => depth[t.skill]!),
    postings: lower,
    postingsCased: cased,
    substrings: b.substringChannel(0),
    substringsCased: b.substringChannel(1),
    scanner: b.literalIds.size > 0 ? new LiteralScanner([...b.literalIds.keys()]) : null,
    literalTriggers: b.literalTriggers,
    alwaysRun: b.alwaysRun,
    keywordCount: b.keywordCount,
    maxDepth,
    stats: {
      skills: skills.length,
      candidates,
      keywordTriggers: b.keywordTriggers,
      patternTriggers,
      unfilteredPatterns: b.alwaysRun.length,
      distinctTokens: lower.size + cased.size,
      secondaryTriggers,
    },
  };
}

function push<T>(map: Map<string, T[]>, key: string, ...values: T[]): void {
  const list = map.get(key);
  if (list) list.push(...values);
  else map.set(key, values);
}
