import type { AvailableSkill } from '../../skills/skill-resolver';
import { scanText } from './required-literals';
import { normalizeText, tokenize, tokenizeCased } from './tokenize';
import { buildTriggerIndexCore, type SubstringChannel, type TokenPostings, type TriggerIndexCore, type TriggerIndexStats } from './trigger-index-core';
import {
  activatesOnMatch,
  keywordReason,
  patternInput,
  patternReason,
  regexInput,
  secondaryLabel,
  selectiveOutcome,
  type ScanMessages,
  type SecondaryMiss,
  type TriggerEvaluation,
  type TriggerFilter,
  type TriggerMatch,
} from './trigger-match';

/**
 * The one trigger matcher (seed 000 §4a, DESIGN §4, §10, issue 8) for seed-000 auto-triggers and
 * `mentioned` skills alike, built once per skill set so that a turn costs O(scanned text + hits), not
 * O(skills × triggers). The semantics are trigger-match.ts's; briefly:
 *
 * - Messages are scanned newest first, up to the deepest `scanDepth` of the set; a hit in message m
 *   counts for a skill only when m < its depth (a skill's later messages are only ever deeper).
 * - KEYWORDS: an inverted index token → (trigger, keyword), one for lower-cased tokens and one for
 *   tokens as written (`caseSensitive`); a phrase is filed under its first token and verified against
 *   the following tokens of the same message. Substring keywords (`matchWholeWords: false`) go through
 *   an Aho–Corasick scanner per case mode. Each trigger counts its distinct keywords found and fires at
 *   its threshold (`minMatch` capped at n, else ceil(n / 2)).
 * - PATTERN: a required literal is extracted from each regex where that is provably safe
 *   (required-literals.ts); one Aho–Corasick pass per message finds the patterns whose literal occurs,
 *   and only those regexes run, plus the few without an extractable literal.
 * - Regexes run on RE2 (skills/trigger-regex.ts, issue 13): a search is linear in the text whatever
 *   the pattern's shape — `(a{1,5})+b`, `.*a.*x` included — so no shape needs refusing. They search
 *   the first PATTERN_INPUT_CAP (10,000) characters of each message. KEYWORDS read whole messages:
 *   linear.
 * - Secondary triggers: keywords are counted in the same pass; secondary regexes run only for the
 *   skills whose primary triggers fired (O(hits)); selectiveLogic then decides.
 *
 * The static filters (canAutoTrigger) are applied when building; the per-process ones (already active,
 * whitelist) when matching. One result per skill — its first firing primary trigger in declaration
 * order — in the order of the skill list. The result is, by construction and by a property test,
 * exactly that of evaluateTriggersNaive.
 *
 * The tables (TriggerIndexCore) never change after the build. Matching counts in per-index scratch
 * arrays stamped with a generation instead of being cleared; it is synchronous, so one index serves
 * concurrent turns safely.
 */
export class TriggerIndex {
  private readonly core: TriggerIndexCore;
  // Scratch, stamped with a generation instead of being cleared.
  private readonly keywordStamp: Int32Array;
  private readonly triggerStamp: Int32Array;
  private readonly triggerCount: Int32Array;
  /** Per trigger: the call generation in which it fired. */
  private readonly firedStamp: Int32Array;
  /** Per trigger: the message generation in which it became a regex candidate. */
  private readonly candidateStamp: Int32Array;
  private readonly skillStamp: Int32Array;
  private readonly skillBest: Int32Array;
  private readonly tokenStamp: Int32Array;
  private generation = 0;

  /** Builds the index for `skills`, or rebinds a core built for the same parsed skills (see TriggerIndexCache). */
  constructor(readonly skills: readonly AvailableSkill[], core?: TriggerIndexCore) {
    this.core = core ?? buildTriggerIndexCore(skills);
    const triggers = this.core.triggers.length;
    this.keywordStamp = new Int32Array(this.core.keywordCount);
    this.triggerStamp = new Int32Array(triggers);
    this.triggerCount = new Int32Array(triggers);
    this.firedStamp = new Int32Array(triggers);
    this.candidateStamp = new Int32Array(triggers);
    this.skillStamp = new Int32Array(skills.length);
    this.skillBest = new Int32Array(skills.length);
    this.tokenStamp = new Int32Array(this.core.postings.size + this.core.postingsCased.size);
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

  /**
   * The skills a turn turns on by their triggers: seed-000 auto-triggers and `mentioned` skills (not
   * `picked` ones, which only the model opens; see `evaluate`). `messages`: one message, or the scan
   * window newest first.
   */
  match(messages: ScanMessages | string, filter: TriggerFilter): TriggerMatch[] {
    return this.evaluate(messages, filter).matches.filter((m) => activatesOnMatch(m.available));
  }

  /** Every matched skill (also `picked` ones with closeWhenUnmentioned) and every secondary-trigger miss. */
  evaluate(messages: ScanMessages | string, filter: TriggerFilter): TriggerEvaluation {
    const scan = typeof messages === 'string' ? [messages] : messages;
    const allowed = filter.allowedSkillsOverride === null ? null : new Set(filter.allowedSkillsOverride);
    if (allowed?.size === 0 || this.core.triggers.length === 0) return { matches: [], misses: [] };
    const active = new Set(filter.active);
    const depth = Math.min(this.core.maxDepth, scan.length);
    this.resetIfWrapping(depth);
    const gen = this.nextGeneration();
    const excluded = (skill: number): boolean => {
      const name = this.skills[skill]!.name;
      return active.has(name) || (allowed !== null && !allowed.has(name));
    };
    const fired: number[] = [];
    const patternHits = new Map<number, string>();
    const onFire = (trigger: number): void => {
      this.firedStamp[trigger] = gen;
      const { skill, index, secondary } = this.core.triggers[trigger]!;
      if (secondary) return;
      if (this.skillStamp[skill] !== gen) {
        this.skillStamp[skill] = gen;
        this.skillBest[skill] = index;
        fired.push(skill);
      } else if (index < this.skillBest[skill]!) {
        this.skillBest[skill] = index;
      }
    };
    for (let m = 0; m < depth; m++) {
      const message = scan[m]!;
      this.matchKeywords(message, m, gen, onFire);
      this.matchPatterns(message, m, gen, excluded, (trigger, text) => {
        patternHits.set(trigger, text);
        onFire(trigger);
      });
    }
    const matches: TriggerMatch[] = [];
    const misses: SecondaryMiss[] = [];
    for (const skill of fired.filter((s) => !excluded(s)).sort((a, b) => a - b)) {
      this.decide(skill, scan, gen, patternHits, matches, misses);
    }
    return { matches, misses };
  }

  private matchKeywords(message: string, m: number, gen: number, onFire: (trigger: number) => void): void {
    const { postings, postingsCased, substrings, substringsCased, thresholds, triggerDepth } = this.core;
    const keywordStamp = this.keywordStamp;
    const triggerStamp = this.triggerStamp;
    const triggerCount = this.triggerCount;
    // Counts a distinct keyword once per call, within its skill's depth; a trigger fires at its threshold.
    const hit = (trigger: number, keyword: number): void => {
      if (keywordStamp[keyword] === gen || m >= triggerDepth[trigger]!) return;
      keywordStamp[keyword] = gen;
      if (triggerStamp[trigger] !== gen) {
        triggerStamp[trigger] = gen;
        triggerCount[trigger] = 0;
      }
      if (++triggerCount[trigger]! === thresholds[trigger]) onFire(trigger);
    };
    if (postings.size > 0) this.matchTokens(tokenize(message), postings, gen, hit);
    if (postingsCased.size > 0) this.matchTokens(tokenizeCased(message), postingsCased, gen, hit);
    if (substrings) scanSubstrings(substrings, normalizeText(message, false), hit);
    if (substringsCased) scanSubstrings(substringsCased, normalizeText(message, true), hit);
  }

  private matchTokens(tokens: readonly string[], postings: ReadonlyMap<string, TokenPostings>, gen: number, hit: (trigger: number, keyword: number) => void): void {
    const tokenStamp = this.tokenStamp;
    for (let i = 0; i < tokens.length; i++) {
      const entry = postings.get(tokens[i]!);
      if (!entry) continue;
      // One-word keywords need only the first (newest) occurrence of their token; phrases need every one.
      if (tokenStamp[entry.id] !== gen) {
        tokenStamp[entry.id] = gen;
        const words = entry.words;
        for (let p = 0; p < words.length; p += 2) hit(words[p]!, words[p + 1]!);
      }
      for (const phrase of entry.phrases) if (followedBy(tokens, i + 1, phrase.rest)) hit(phrase.trigger, phrase.keyword);
    }
  }

  private matchPatterns(message: string, m: number, gen: number, excluded: (skill: number) => boolean, onFire: (trigger: number, text: string) => void): void {
    const { scanner, alwaysRun, literalTriggers, triggers, triggerDepth } = this.core;
    if (!scanner && alwaysRun.length === 0) return;
    const lowered = patternInput(message);
    let cased: string | null = null;
    const messageGen = this.nextGeneration();
    const candidates: number[] = [...alwaysRun];
    scanner?.scan(scanText(lowered), (literal) => {
      for (const t of literalTriggers[literal]!) {
        if (this.candidateStamp[t] === messageGen) continue;
        this.candidateStamp[t] = messageGen;
        candidates.push(t);
      }
    });
    for (const t of candidates) {
      const entry = triggers[t]!;
      const { skill, index } = entry;
      // Fired already, too deep, a skill whose earlier trigger fired, or one the process filters out: no search.
      if (this.firedStamp[t] === gen || m >= triggerDepth[t]! || (this.skillStamp[skill] === gen && this.skillBest[skill]! < index) || excluded(skill)) continue;
      const found = entry.regex!.find(entry.cased ? (cased ??= regexInput(message, true)) : lowered);
      if (found !== null) onFire(t, found);
    }
  }

  /** Secondary triggers and selectiveLogic for a skill whose primary triggers fired. */
  private decide(position: number, scan: ScanMessages, gen: number, patternHits: ReadonlyMap<number, string>, matches: TriggerMatch[], misses: SecondaryMiss[]): void {
    const skill = this.skills[position]!;
    const triggerIndex = this.skillBest[position]!;
    const trigger = skill.skill.triggers[triggerIndex]!;
    const id = this.core.firstTrigger[position]! + triggerIndex;
    const evidence = trigger.type === 'PATTERN' ? [patternHits.get(id) ?? ''] : this.keywordsFound(id, gen);
    const { activation } = skill.skill;
    const secondary = activation.secondaryTriggers;
    const first = this.core.firstSecondary[position]!;
    const depth = Math.min(this.core.depth[position]!, scan.length);
    const met = secondary.map((_t, k) => this.secondaryMet(first + k, scan, depth, gen));
    const outcome = selectiveOutcome(activation.selectiveLogic, secondary, met);
    if (outcome) {
      misses.push({ skill: skill.name, available: skill, evidence, logic: activation.selectiveLogic, ...outcome });
      return;
    }
    const reason = trigger.type === 'PATTERN' ? patternReason(trigger.pattern) : keywordReason(evidence);
    matches.push({ skill: skill.name, available: skill, triggerIndex, trigger, evidence, reason, secondary: secondary.filter((_t, k) => met[k]).map(secondaryLabel) });
  }

  private secondaryMet(id: number, scan: ScanMessages, depth: number, gen: number): boolean {
    const entry = this.core.triggers[id]!;
    if (!entry.regex) return this.firedStamp[id] === gen;
    for (let m = 0; m < depth; m++) if (entry.regex.test(regexInput(scan[m]!, entry.cased))) return true;
    return false;
  }

  private keywordsFound(id: number, gen: number): string[] {
    const entry = this.core.triggers[id]!;
    return entry.keywords.filter((_k, k) => this.keywordStamp[entry.firstKeyword + k] === gen);
  }

  private nextGeneration(): number {
    return ++this.generation;
  }

  /** Called before a scan only, so that stamps never wrap in the middle of one (a scan takes ≤ 1 + depth generations). */
  private resetIfWrapping(depth: number): void {
    if (this.generation < 0x7fffffff - depth - 2) return;
    this.generation = 0;
    for (const a of [this.keywordStamp, this.triggerStamp, this.firedStamp, this.candidateStamp, this.skillStamp, this.tokenStamp]) a.fill(0);
  }
}

function scanSubstrings(channel: SubstringChannel, text: string, hit: (trigger: number, keyword: number) => void): void {
  channel.scanner.scan(text, (literal) => {
    const pairs = channel.owners[literal]!;
    for (let p = 0; p < pairs.length; p += 2) hit(pairs[p]!, pairs[p + 1]!);
  });
}

function followedBy(tokens: readonly string[], from: number, rest: readonly string[]): boolean {
  if (from + rest.length > tokens.length) return false;
  for (let j = 0; j < rest.length; j++) if (tokens[from + j] !== rest[j]) return false;
  return true;
}
