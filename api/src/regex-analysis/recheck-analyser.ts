/**
 * The BacktrackingAnalyser adapter (port: domain/skills/backtracking-analyser.ts) on recheck, a ReDoS
 * checker that classifies a JavaScript regex as safe, polynomial (with its degree) or exponential by
 * automata theory, with fuzzing as the fallback (issue 13). It replaces a hand-written shape checker
 * that missed both `(a{1,5})+b` (exponential) and `please.*deploy.*prod` (polynomial).
 *
 * The analysis is advice, never a gate (matching is linear on RE2 whatever it says), so it may give
 * up, and its cost is capped three ways, because `checkSync` blocks the calling thread while
 * recheck's worker thread (and, where the platform package is installed, its native agent process)
 * does the work:
 * - each pattern gets `timeoutMs` (recheck's own `timeout`; past it the verdict is UNKNOWN);
 * - an instance spends at most `budgetMsPerMinute` on analyses; beyond, verdicts are UNKNOWN (not
 *   remembered) until the minute is over, so a stream of novel patterns cannot take the event loop;
 * - synckit, which carries `checkSync`, waits at most SYNCKIT_TIMEOUT for its worker. It reads that
 *   variable once, when recheck is first loaded; this module sets it then (unless the operator did),
 *   so a wedged worker costs one bounded wait, after which the analyser rests for COOL_DOWN_MS.
 * Verdicts are remembered per pattern (an LRU), so re-validating a saved document is free.
 * recheck (2.9 MB of JavaScript) is loaded on the first analysis, not at start.
 */
import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';
import type { Diagnostics, Parameters } from 'recheck';
import type { BacktrackingAnalyser, BacktrackingVerdict, JsRegexSource } from '../domain/skills';

export type CheckSync = (source: string, flags: string, params: Parameters) => Diagnostics;

export interface RecheckAnalyserOptions {
  /** The longest one pattern's analysis may take; 0 turns the analysis off. */
  readonly timeoutMs: number;
  /** Analysis time per minute, over all patterns of this instance. */
  readonly budgetMsPerMinute: number;
  /** Tests: a stand-in for recheck's checkSync, and the clock. */
  readonly check?: CheckSync;
  readonly now?: () => number;
}

/** Longer patterns are not analysed: recheck's cost grows with the pattern, and real triggers are short. */
export const MAX_ANALYSED_LENGTH = 2_000;
/** After the analyser failed (not a timeout: an error or synckit's wait ran out), it rests this long. */
export const COOL_DOWN_MS = 5 * 60_000;
/** A remaining budget below this is not worth starting an analysis. */
const MIN_SLICE_MS = 20;
const WINDOW_MS = 60_000;
const MAX_HOTSPOTS = 3;

export class RecheckAnalyser implements BacktrackingAnalyser {
  private readonly verdicts = new LRUCache<string, BacktrackingVerdict>({ max: 2_000 });
  private readonly now: () => number;
  private check: CheckSync | undefined;
  private windowStart = -Infinity;
  private spent = 0;
  private restingUntil = -Infinity;

  constructor(private readonly options: RecheckAnalyserOptions) {
    this.now = options.now ?? (() => performance.now());
    this.check = options.check;
  }

  analyse(regex: JsRegexSource): BacktrackingVerdict {
    if (this.options.timeoutMs === 0) return unknown('the analysis is turned off');
    if (regex.source.length > MAX_ANALYSED_LENGTH) return unknown('the pattern is too long to analyse');
    const key = `${regex.flags}/${regex.source}`;
    const known = this.verdicts.get(key);
    if (known) return known;
    const now = this.now();
    if (now < this.restingUntil) return unknown('the analyser failed recently');
    if (now - this.windowStart >= WINDOW_MS) {
      this.windowStart = now;
      this.spent = 0;
    }
    const left = this.options.budgetMsPerMinute - this.spent;
    if (left < MIN_SLICE_MS) return unknown('the analysis budget of this minute is spent');
    const timeout = Math.min(this.options.timeoutMs, left);
    let verdict: BacktrackingVerdict;
    try {
      verdict = toVerdict(this.checker()(regex.source, regex.flags, { timeout }), regex.source);
    } catch (error) {
      this.restingUntil = this.now() + COOL_DOWN_MS;
      return unknown(`the analyser failed: ${(error as Error).message}`);
    } finally {
      this.spent += this.now() - now;
    }
    // A timeout under a budget-shortened limit may succeed later with the full one: not remembered.
    if (verdict.kind !== 'UNKNOWN' || timeout === this.options.timeoutMs) this.verdicts.set(key, verdict);
    return verdict;
  }

  private checker(): CheckSync {
    if (!this.check) {
      process.env.SYNCKIT_TIMEOUT ??= String(Math.max(5_000, this.options.timeoutMs * 3));
      this.check = (createRequire(__filename)('recheck') as typeof import('recheck')).checkSync;
    }
    return this.check;
  }
}

function unknown(reason: string): BacktrackingVerdict {
  return { kind: 'UNKNOWN', reason };
}

function toVerdict(diagnostics: Diagnostics, source: string): BacktrackingVerdict {
  switch (diagnostics.status) {
    case 'safe':
      return { kind: 'SAFE' };
    case 'unknown':
      return unknown(diagnostics.error.kind === 'timeout' ? 'timeout' : `${diagnostics.error.kind}${'message' in diagnostics.error ? `: ${diagnostics.error.message}` : ''}`);
    case 'vulnerable': {
      const hotspots = [...new Set(diagnostics.hotspot.filter((h) => h.temperature === 'heat').map((h) => source.slice(h.start, h.end)))].slice(0, MAX_HOTSPOTS);
      const { complexity } = diagnostics;
      return complexity.type === 'exponential'
        ? { kind: 'EXPONENTIAL', degree: null, hotspots }
        : { kind: 'POLYNOMIAL', degree: complexity.degree, hotspots };
    }
  }
}
