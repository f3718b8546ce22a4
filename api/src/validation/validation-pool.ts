/**
 * Document validation on a worker-thread pool (piscina), behind the DocumentChecker port (issue 13).
 * A valid document near the 1 MB limit costs about a second of CPU to read (the YAML library parses
 * about 1 MB/s), and the save-time ReDoS analysis of its patterns up to the analyser's budget; on the
 * event loop, that paused every tenant's requests. Here:
 * - free documents (no kind) are answered at once, without a worker;
 * - each validation has a deadline; past it, piscina terminates the worker running it (its next task
 *   gets a fresh one) and the caller gets DocumentTooCostlyError — the work is bounded, not only the input;
 * - the queue is bounded; a full queue is a RATE_LIMITED refusal, not an unbounded backlog;
 * - threads start on demand and end when idle, so an instance that never validates pays nothing.
 * Under tsx or vitest (tests, `npm run dev`) the worker is the .ts file, loaded through tsx's require hook.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { extname, join } from 'node:path';
import { Piscina } from 'piscina';
import type { Diagnostic } from '../domain/errors';
import { LimitExceededError } from '../domain/errors';
import { DocumentTooCostlyError, type DocumentChecker, type DocumentValidator } from '../domain/documents/document-validator';
import type { ValidationTask, ValidationWorkerData } from './validation-task';

export interface ValidationPoolOptions {
  /** Decides which paths have a kind (and so need a worker); the workers run the same list. */
  readonly validator: DocumentValidator;
  readonly workerData: ValidationWorkerData;
  /** Worker threads at most; default: the cores but one (at least 1, at most 4). */
  readonly threads?: number;
  /** A validation's deadline (ms). */
  readonly timeoutMs: number;
  /** Validations waiting for a thread at most. */
  readonly maxQueue?: number;
  readonly onWorkerError?: (error: unknown) => void;
}

const WORKER_FILE = join(__dirname, `validation-worker${extname(__filename)}`);

export class ValidationPool implements DocumentChecker {
  private readonly pool: Piscina;
  private readonly validator: DocumentValidator;
  private readonly timeoutMs: number;
  private readonly maxQueue: number;

  constructor(options: ValidationPoolOptions) {
    this.validator = options.validator;
    this.timeoutMs = options.timeoutMs;
    this.maxQueue = options.maxQueue ?? 64;
    const threads = options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1));
    this.pool = new Piscina({
      filename: WORKER_FILE,
      workerData: options.workerData,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 30_000,
      maxQueue: this.maxQueue,
      execArgv: workerExecArgv(),
    });
    // A worker that dies outside a task (out of memory, say) is replaced; without a listener the
    // 'error' event would end the process.
    this.pool.on('error', (error: unknown) => options.onWorkerError?.(error));
  }

  kindOf(path: string): string | null {
    return this.validator.kindOf(path);
  }

  /** `deadlineMs` overrides the pool's deadline for this one validation. */
  async validate(path: string, content: string, deadlineMs = this.timeoutMs): Promise<Diagnostic[]> {
    if (this.validator.kindOf(path) === null) return [];
    // Checked here: piscina's own maxQueue does not refuse while threads are still starting (measured).
    if (this.pool.queueSize >= this.maxQueue) throw this.queueFull();
    const task: ValidationTask = { path, content };
    try {
      return (await this.pool.run(task, { signal: AbortSignal.timeout(deadlineMs) })) as Diagnostic[];
    } catch (error) {
      if (isAbort(error)) throw new DocumentTooCostlyError(path, deadlineMs);
      if (error instanceof Error && /queue is at limit/i.test(error.message)) throw this.queueFull();
      throw error;
    }
  }

  /** Ends the workers (a running validation is cut off). */
  async close(): Promise<void> {
    await this.pool.close({ force: true });
  }

  private queueFull(): LimitExceededError {
    return new LimitExceededError('RATE_LIMITED', 'validationQueue', this.maxQueue, 1_000,
      `Too many documents are being validated on this server (${this.maxQueue} waiting); try again in a moment`);
  }
}

/** The process's flags minus those a worker refuses (`npm start` runs `--no-node-snapshot`), plus tsx for a .ts worker. */
function workerExecArgv(): string[] {
  const inherited = process.execArgv.filter((flag) => !PROCESS_ONLY_FLAGS.has(flag));
  // piscina require()s the worker file first; tsx's require hook lets that read TypeScript.
  return WORKER_FILE.endsWith('.ts') ? [...inherited, '--require', createRequire(__filename).resolve('tsx/cjs')] : inherited;
}

const PROCESS_ONLY_FLAGS: ReadonlySet<string> = new Set(['--no-node-snapshot']);

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError' || (error as { code?: unknown }).code === 'ABORT_ERR');
}
