/**
 * The warm isolates of the script sandbox. Acquisition is exclusive and never waits: when every warm
 * isolate is busy, the run gets a fresh (cold) one. Waiting could deadlock — a host function may run
 * another script (a nested `vance.tool` → a skill script) while its caller's isolate is blocked in
 * applySyncPromise. After a clean run an isolate goes back to the pool while the pool is below its
 * size; an isolate that timed out, hit its memory limit or failed otherwise is disposed, never reused.
 * So is one whose heap stays above `recycleHeapMb` after a run: V8 keeps a heap that a large result
 * or argument made it grow, and a pool isolate lives as long as the server.
 * Warm isolates are disposed once no run has come back for `idleReleaseMs`: a server that ran
 * scripts once keeps no isolates (with the heaps the runs grew, 2–8 MB each) through a quiet
 * period; the next run pays a cold isolate (~1–2 ms), as the first one after a start does.
 */
import { isolatedVm, type ivm } from './isolated-vm';
import { BOOTSTRAP_FILENAME, BOOTSTRAP_SOURCE } from './script-bootstrap';

export interface SandboxIsolate {
  readonly isolate: ivm.Isolate;
  /** Compiled once per isolate, run in each new context (script-bootstrap.ts). */
  readonly bootstrap: ivm.Script;
  /** The context the next run may reuse (its realm guard decides), or null. */
  realm: SandboxRealm | null;
  /** The realm guard's check of `realm` after the last run, while it is under way (never rejects). */
  settling: Promise<void> | null;
  /** The last run left its context changed: the next run takes a plain fresh one (no snapshot). */
  dirty: boolean;
}

/** A context with the bootstrap run in it: `start` is the guest driver (script-bootstrap.ts). */
export interface SandboxRealm {
  readonly context: ivm.Context;
  readonly start: ivm.Reference<(host: unknown, setupJson: string, code: string, reuse: boolean) => string>;
}

/** Frees a context and its driver (nothing to do once the isolate is disposed). */
export function releaseRealm(entry: SandboxIsolate): void {
  const realm = entry.realm;
  entry.realm = null;
  if (!realm || entry.isolate.isDisposed) return;
  realm.start.release();
  realm.context.release();
}

export class IsolatePool {
  private readonly idle: SandboxIsolate[] = [];
  /** Isolates the pool keeps (idle or lent out); at most `size`. */
  private readonly kept = new Set<SandboxIsolate>();
  /** Every isolate lent out, kept or cold, so dispose() reaches running ones too. */
  private readonly busy = new Set<SandboxIsolate>();
  private disposed = false;
  private recycles = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly size: number,
    private readonly memoryLimitMb: number,
    private readonly recycleHeapMb: number = Infinity,
    private readonly idleReleaseMs: number = Infinity,
  ) {}

  /** Isolates disposed after a clean run because their heap had grown over the threshold. */
  get recycled(): number {
    return this.recycles;
  }

  /** How many isolates the pool keeps warm right now (never more than its size). */
  get warmCount(): number {
    return this.kept.size;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Whether a clean run would put `entry` back in the pool (so its context is worth keeping). */
  wouldKeep(entry: SandboxIsolate): boolean {
    return !this.disposed && (this.kept.has(entry) || this.kept.size < this.size);
  }

  /** The most recently used idle isolate whose context check is done, else the most recent one. */
  acquire(): SandboxIsolate {
    if (this.disposed) throw new Error('the script sandbox is disposed');
    for (let i = this.idle.length - 1; i >= 0; i--) {
      if (!this.idle[i]!.isolate.isDisposed) continue;
      this.kept.delete(this.idle[i]!);
      this.idle.splice(i, 1);
    }
    let index = this.idle.length - 1;
    while (index > 0 && this.idle[index]!.settling) index--;
    if (index >= 0 && this.idle[index]!.settling) index = this.idle.length - 1;
    const entry = index >= 0 ? this.idle.splice(index, 1)[0]! : this.create();
    this.busy.add(entry);
    return entry;
  }

  /**
   * `reusable`: the run ended normally, so the isolate holds nothing but garbage of a dead context.
   * True when the isolate went back to the pool.
   */
  release(entry: SandboxIsolate, reusable: boolean): boolean {
    this.busy.delete(entry);
    const keep = reusable && !this.disposed && !entry.isolate.isDisposed && (this.kept.has(entry) || this.kept.size < this.size);
    if (keep && this.grown(entry)) {
      this.recycles++;
    } else if (keep) {
      this.kept.add(entry);
      this.idle.push(entry);
      this.armIdleRelease();
      return true;
    }
    this.kept.delete(entry);
    destroy(entry);
    return false;
  }

  dispose(): void {
    this.disposed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const entry of [...this.idle, ...this.busy]) destroy(entry);
    this.idle.length = 0;
    this.kept.clear();
    this.busy.clear();
  }

  /** (Re)starts the quiet-period timer; unref'd, so it never keeps the process alive. */
  private armIdleRelease(): void {
    if (!Number.isFinite(this.idleReleaseMs)) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.releaseIdle(), this.idleReleaseMs);
    this.idleTimer.unref();
  }

  /** Disposes the idle isolates; one whose realm check is still under way is tried again later. */
  private releaseIdle(): void {
    this.idleTimer = null;
    for (const entry of [...this.idle]) {
      if (entry.settling) continue;
      this.idle.splice(this.idle.indexOf(entry), 1);
      this.kept.delete(entry);
      destroy(entry);
    }
    if (this.idle.length > 0) this.armIdleRelease();
  }

  /** Whether V8's committed heap of the isolate (garbage included) is over the threshold; ~2 µs. */
  private grown(entry: SandboxIsolate): boolean {
    return entry.isolate.getHeapStatisticsSync().total_heap_size > this.recycleHeapMb * 1024 * 1024;
  }

  private create(): SandboxIsolate {
    const isolate = new (isolatedVm().Isolate)({ memoryLimit: this.memoryLimitMb });
    try {
      return { isolate, bootstrap: isolate.compileScriptSync(BOOTSTRAP_SOURCE, { filename: BOOTSTRAP_FILENAME }), realm: null, settling: null, dirty: false };
    } catch (error) {
      isolate.dispose();
      throw error;
    }
  }
}

function destroy(entry: SandboxIsolate): void {
  if (entry.isolate.isDisposed) return;
  releaseRealm(entry);
  entry.bootstrap.release();
  entry.isolate.dispose();
}
