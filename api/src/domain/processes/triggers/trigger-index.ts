import type { AvailableSkill } from '../../skills/skill-resolver';
import { scanText } from './required-literals';
import { tokenize } from './tokenize';
import { buildTriggerIndexCore, type TriggerIndexCore, type TriggerIndexStats } from './trigger-index-core';
import { keywordReason, patternInput, patternReason, type TriggerFilter, type TriggerMatch } from './trigger-match';

/**
 * The auto-trigger matcher (seed 000 §4a, DESIGN §4, §10), built once per skill set so that matching
 * one message costs O(message + hits), not O(skills × triggers):
 *
 * - KEYWORDS: an inverted index token → (trigger, keyword). A phrase is filed under its first token
 *   and verified against the following tokens. Each trigger counts its distinct keywords found and
 *   fires at its threshold (`minMatch` capped at n, else ceil(n / 2)).
 * - PATTERN: a required literal is extracted from each regex where that is provably safe
 *   (required-literals.ts); one Aho–Corasick pass over the message finds the patterns whose literal
 *   occurs, and only those regexes run, plus the few without an extractable literal.
 * - Regexes search the first PATTERN_INPUT_CAP (10,000) characters of the message, lower-cased: the
 *   cap bounds the linear and polynomial cost of a search on a pasted log. It does NOT bound
 *   exponential backtracking (`(a+)+b` needs 30 characters); such shapes must be refused when the
 *   SKILL.md is parsed (as templates/pebble-compat.ts refuses them for `is matching`). KEYWORDS read
 *   the whole message: tokenising is linear.
 *
 * The static filters (enabled, has triggers, model-invocable, not spawn) are applied when building;
 * the per-process ones (already active, whitelist) when matching. One match per skill — its first
 * firing trigger in declaration order — in the order of the skill list. The result is, by
 * construction and by a property test, exactly that of matchTriggersNaive.
 *
 * The tables (TriggerIndexCore) never change after the build. `match` counts in per-index scratch
 * arrays stamped with a per-call generation instead of being cleared; it is synchronous, so one
 * index serves concurrent turns safely.
 */
export class TriggerIndex {
  private readonly core: TriggerIndexCore;
  // Scratch for `match`, stamped with a generation instead of being cleared.
  private readonly keywordStamp: Int32Array;
  private readonly triggerStamp: Int32Array;
  private readonly triggerCount: Int32Array;
  private readonly skillStamp: Int32Array;
  private readonly skillBest: Int32Array;
  private readonly tokenStamp: Int32Array;
  private generation = 0;

  /** Builds the index for `skills`, or rebinds a core built for the same parsed skills (see TriggerIndexCache). */
  constructor(readonly skills: readonly AvailableSkill[], core?: TriggerIndexCore) {
    this.core = core ?? buildTriggerIndexCore(skills);
    this.keywordStamp = new Int32Array(this.core.keywordCount);
    this.triggerStamp = new Int32Array(this.core.triggers.length);
    this.triggerCount = new Int32Array(this.core.triggers.length);
    this.skillStamp = new Int32Array(skills.length);
    this.skillBest = new Int32Array(skills.length);
    this.tokenStamp = new Int32Array(this.core.postings.size);
  }

  get stats(): TriggerIndexStats {
    return this.core.stats;
  }

  /** @internal the shared part, for TriggerIndexCache. */
  get shared(): TriggerIndexCore {
    return this.core;
  }

  /** The skill of this set with that name (any skill, also ones that cannot auto-trigger). */
  find(name: string): AvailableSkill | undefined {
    const position = this.core.positions.get(name);
    return position === undefined ? undefined : this.skills[position];
  }

  match(message: string, filter: TriggerFilter): TriggerMatch[] {
    const allowed = filter.allowedSkillsOverride === null ? null : new Set(filter.allowedSkillsOverride);
    if (allowed?.size === 0 || this.core.triggers.length === 0) return [];
    const active = new Set(filter.active);
    const gen = this.nextGeneration();
    const excluded = (skill: number): boolean => {
      const name = this.skills[skill]!.name;
      return active.has(name) || (allowed !== null && !allowed.has(name));
    };
    const fired: number[] = [];
    const patternHits = new Map<number, string>();
    const onFire = (trigger: number): void => {
      const { skill, index } = this.core.triggers[trigger]!;
      if (this.skillStamp[skill] !== gen) {
        this.skillStamp[skill] = gen;
        this.skillBest[skill] = index;
        fired.push(skill);
      } else if (index < this.skillBest[skill]!) {
        this.skillBest[skill] = index;
      }
    };
    if (this.core.postings.size > 0) this.matchKeywords(message, gen, onFire);
    this.matchPatterns(message, gen, excluded, (trigger, text) => {
      patternHits.set(trigger, text);
      onFire(trigger);
    });
    return fired
      .filter((skill) => !excluded(skill))
      .sort((a, b) => a - b)
      .map((skill) => this.toMatch(skill, this.skillBest[skill]!, gen, patternHits));
  }

  private matchKeywords(message: string, gen: number, onFire: (trigger: number) => void): void {
    const tokens = tokenize(message);
    const { postings, thresholds } = this.core;
    const keywordStamp = this.keywordStamp;
    const triggerStamp = this.triggerStamp;
    const triggerCount = this.triggerCount;
    // Counts a distinct keyword once per message; a trigger fires when its count reaches the threshold.
    const hit = (trigger: number, keyword: number): void => {
      if (keywordStamp[keyword] === gen) return;
      keywordStamp[keyword] = gen;
      if (triggerStamp[trigger] !== gen) {
        triggerStamp[trigger] = gen;
        triggerCount[trigger] = 0;
      }
      if (++triggerCount[trigger]! === thresholds[trigger]) onFire(trigger);
    };
    const tokenStamp = this.tokenStamp;
    for (let i = 0; i < tokens.length; i++) {
      const entry = postings.get(tokens[i]!);
      if (!entry) continue;
      // One-word keywords need only the first occurrence of their token; phrases need every one.
      if (tokenStamp[entry.id] !== gen) {
        tokenStamp[entry.id] = gen;
        const words = entry.words;
        for (let p = 0; p < words.length; p += 2) hit(words[p]!, words[p + 1]!);
      }
      for (const phrase of entry.phrases) if (followedBy(tokens, i + 1, phrase.rest)) hit(phrase.trigger, phrase.keyword);
    }
  }

  private matchPatterns(message: string, gen: number, excluded: (skill: number) => boolean, onFire: (trigger: number, text: string) => void): void {
    const { scanner, alwaysRun, literalTriggers, triggers } = this.core;
    if (!scanner && alwaysRun.length === 0) return;
    const input = patternInput(message);
    const candidates: number[] = [...alwaysRun];
    scanner?.scan(scanText(input), (literal) => {
      for (const t of literalTriggers[literal]!) {
        if (this.triggerStamp[t] === gen) continue;
        this.triggerStamp[t] = gen;
        candidates.push(t);
      }
    });
    for (const t of candidates) {
      const { skill, index, regex } = triggers[t]!;
      // A skill whose earlier trigger already fired, or that the process filters out, needs no search.
      if ((this.skillStamp[skill] === gen && this.skillBest[skill]! < index) || excluded(skill)) continue;
      regex!.lastIndex = 0;
      const found = regex!.exec(input);
      if (found) onFire(t, found[0]);
    }
  }

  private toMatch(position: number, triggerIndex: number, gen: number, patternHits: ReadonlyMap<number, string>): TriggerMatch {
    const skill = this.skills[position]!;
    const trigger = skill.skill.triggers[triggerIndex]!;
    const id = this.core.firstTrigger[position]! + triggerIndex;
    if (trigger.type === 'PATTERN') {
      return { skill: skill.name, available: skill, triggerIndex, trigger, evidence: [patternHits.get(id) ?? ''], reason: patternReason(trigger.pattern) };
    }
    const entry = this.core.triggers[id]!;
    const evidence = entry.keywords.filter((_k, k) => this.keywordStamp[entry.firstKeyword + k] === gen);
    return { skill: skill.name, available: skill, triggerIndex, trigger, evidence, reason: keywordReason(evidence) };
  }

  private nextGeneration(): number {
    if (this.generation >= 0x7fffffff) {
      this.generation = 0;
      for (const a of [this.keywordStamp, this.triggerStamp, this.skillStamp, this.tokenStamp]) a.fill(0);
    }
    return ++this.generation;
  }
}

function followedBy(tokens: readonly string[], from: number, rest: readonly string[]): boolean {
  if (from + rest.length > tokens.length) return false;
  for (let j = 0; j < rest.length; j++) if (tokens[from + j] !== rest[j]) return false;
  return true;
}
