/**
 * A guard's scratch state (seed 004 §6d, issue 16): two small JSON maps a guard reads and writes
 * through `vance.guard.loop` and `vance.guard.session`. The loop scratch lives for one user turn's
 * continueWith loop — the next user message clears it, with the round counters — and the session
 * scratch for the life of the process. Each guard has its own pair, under its guard key, so guards
 * never see each other's notes. Capped in bytes, so that a guard cannot grow the process row.
 */

/** JSON as a guard may store it. */
export type ScratchValue = null | boolean | number | string | readonly ScratchValue[] | { readonly [key: string]: ScratchValue };

export interface GuardScratch {
  readonly loop: Readonly<Record<string, ScratchValue>>;
  readonly session: Readonly<Record<string, ScratchValue>>;
}

/** The scratch of every guard of a process, by guard key. */
export type GuardScratchMap = Readonly<Record<string, GuardScratch>>;

/** The JSON text of one scratch map (loop or session of one guard) may hold at most this many bytes. */
export const MAX_SCRATCH_BYTES = 16 * 1024;
/** A scratch key: 1–100 characters. */
export const MAX_SCRATCH_KEY_CHARS = 100;

const UTF8 = new TextEncoder();

export const EMPTY_SCRATCH: GuardScratch = { loop: {}, session: {} };

/** After a user message: every loop scratch emptied, the session scratch kept; guards left with nothing are dropped. */
export function clearLoops(scratch: GuardScratchMap): GuardScratchMap {
  const out: Record<string, GuardScratch> = {};
  for (const [key, value] of Object.entries(scratch)) {
    if (Object.keys(value.session).length > 0) out[key] = { loop: {}, session: value.session };
  }
  return out;
}

/** Whether any guard has a loop entry (a user message then has something to clear). */
export function hasLoopEntries(scratch: GuardScratchMap): boolean {
  return Object.values(scratch).some((s) => Object.keys(s.loop).length > 0);
}

/** `scratch` with one guard's pair replaced (dropped when both maps are empty). */
export function withGuardScratch(scratch: GuardScratchMap, key: string, value: GuardScratch): GuardScratchMap {
  const out: Record<string, GuardScratch> = { ...scratch };
  if (Object.keys(value.loop).length === 0 && Object.keys(value.session).length === 0) delete out[key];
  else out[key] = value;
  return out;
}

/** A guard's working copy of one scratch map: what `vance.guard.loop` / `.session` operate on. */
export class ScratchDraft {
  private readonly entries: Map<string, ScratchValue>;
  private changed = false;

  constructor(private readonly name: 'loop' | 'session', initial: Readonly<Record<string, ScratchValue>>) {
    this.entries = new Map(Object.entries(initial));
  }

  get(key: unknown): ScratchValue {
    return this.entries.get(this.checkedKey('get', key)) ?? null;
  }

  /** Stores a JSON value; null removes the key. Refused (nothing changes) beyond the byte cap. */
  set(key: unknown, value: unknown): boolean {
    const k = this.checkedKey('set', key);
    if (value === null || value === undefined) {
      this.changed ||= this.entries.delete(k);
      return true;
    }
    const text = JSON.stringify(value);
    if (text === undefined) throw new Error(`vance.guard.${this.name}.set: the value must be JSON (an object, list, string, number or boolean)`);
    const next = new Map(this.entries).set(k, JSON.parse(text) as ScratchValue);
    const bytes = UTF8.encode(JSON.stringify(Object.fromEntries(next))).length;
    if (bytes > MAX_SCRATCH_BYTES) {
      throw new Error(`vance.guard.${this.name}.set('${k}'): the ${this.name} scratch would hold ${bytes} bytes of JSON; the cap is ${MAX_SCRATCH_BYTES}`);
    }
    this.entries.set(k, next.get(k)!);
    this.changed = true;
    return true;
  }

  keys(): string[] {
    return [...this.entries.keys()].sort();
  }

  clear(): boolean {
    this.changed ||= this.entries.size > 0;
    this.entries.clear();
    return true;
  }

  get dirty(): boolean {
    return this.changed;
  }

  toJSON(): Record<string, ScratchValue> {
    return Object.fromEntries(this.entries);
  }

  private checkedKey(op: string, key: unknown): string {
    if (typeof key !== 'string' || key === '' || key.length > MAX_SCRATCH_KEY_CHARS) {
      throw new Error(`vance.guard.${this.name}.${op}(key): key must be a string of 1 to ${MAX_SCRATCH_KEY_CHARS} characters`);
    }
    return key;
  }
}
