/**
 * Document validation on a worker-thread pool (piscina), behind the DocumentChecker port (issue 13),
 * and the load-time parse of large stored skills and recipes (LargeDocumentParser).
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
import { inheritedWorkerFlags } from '../worker-flags';
import type { Diagnostic } from '../domain/errors';
import { LimitExceededError } from '../domain/errors';
import { DocumentTooCostlyError, type DocumentChecker, type DocumentValidator } from '../domain/documents/document-validator';
import type { RecipeInput, ParseRecipeResult } from '../domain/recipes/parse-recipe';
import type { ParsedSkill, SkillSource } from '../domain/skills/parse-skill';
import { reviveParsedSkill } from '../domain/skills/parsed-skill-transfer';
import type { LargeDocumentParser } from '../domain/shared/large-document-parser';
import type { ToolCatalog } from '../domain/tools/tool-descriptor';
import type { ValidationTask, ValidationWorkerData } from './validation-task';

export interface ValidationPoolOptions {
  /** Decides which paths have a kind (and so need a worker); the workers run the same list. */
  readonly validator: DocumentValidator;
  readonly workerData: ValidationWorkerData;
  /**
   * The tools recipe and skill tool entries must select (issue 15), read at each validation — the
   * server's catalog, which may be built after the pool. Without it no tool entry is checked.
   */
  readonly tools?: ToolCatalog;
  /** Worker threads at most; default: the cores but one (at least 1, at most 4). */
  readonly threads?: number;
  /** A validation's deadline (ms). */
  readonly timeoutMs: number;
  /** Validations waiting for a thread at most. */
  readonly maxQueue?: number;
  readonly onWorkerError?: (error: unknown) => void;
}

/**
 * Stored documents this long or longer are parsed on the pool when loaded: about 30 ms of parsing on
 * this machine's cores, where the worker round trip (a few ms) starts to pay.
 */
export const LARGE_DOCUMENT_MIN_CHARS = 32 * 1024;

/** Request bodies this long or longer are parsed on the pool: about 1 ms of JSON.parse on the loop. */
export const LARGE_JSON_MIN_CHARS = 128 * 1024;

/** JSON.parse reads 8 MiB (the largest body) in well under a second; not the validation deadline. */
const JSON_DEADLINE_MS = 10_000;

/** Parses JSON text off the event loop; `undefined` when it is not JSON. */
export interface LargeJsonParser {
  readonly minChars: number;
  parse(text: string): Promise<{ readonly value: unknown } | undefined>;
}

const WORKER_FILE = join(__dirname, `validation-worker${extname(__filename)}`);

/**
 * A thread ends this long after its last task. Reading a 1 MB document grows a worker's heap by tens
 * of MB, which it keeps while it lives: with 30 s the server's RSS stayed 14 % up for half a minute
 * after one upload. A restart costs a thread start (tens of ms, on the thread) for the next large document.
 */
const IDLE_TIMEOUT_MS = 5_000;

export class ValidationPool implements DocumentChecker {
  private readonly pool: Piscina;
  private readonly validator: DocumentValidator;
  private readonly timeoutMs: number;
  private readonly maxQueue: number;
  private readonly tools: ToolCatalog | undefined;

  constructor(options: ValidationPoolOptions) {
    this.validator = options.validator;
    this.tools = options.tools;
    this.timeoutMs = options.timeoutMs;
    this.maxQueue = options.maxQueue ?? 64;
    const threads = options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1));
    this.pool = new Piscina({
      filename: WORKER_FILE,
      workerData: options.workerData,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: IDLE_TIMEOUT_MS,
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
    // Names and labels only: what the check reads, and a small structured clone.
    const tools = this.tools?.list().map((t) => ({ name: t.name, labels: [...t.labels] }));
    return (await this.run({ kind: 'validate', path, content, ...(tools ? { tools } : {}) }, path, deadlineMs)) as Diagnostic[];
  }

  /**
   * The loaders' parsers for stored documents of at least `minChars` (large-document-parser.ts).
   * Loads are the server's own work, not a caller's upload, so they wait for a thread rather than
   * being refused; past the deadline the document loads as broken, with a diagnostic saying why.
   */
  skillParser(minChars: number): LargeDocumentParser<SkillSource, ParsedSkill> {
    return {
      minChars,
      parse: async (source) => {
        try {
          return reviveParsedSkill((await this.run({ kind: 'skill', source }, source.path, this.timeoutMs)) as ParsedSkill);
        } catch (error) {
          if (error instanceof DocumentTooCostlyError) return { skill: null, diagnostics: [this.notLoaded(source.path)] };
          throw error;
        }
      },
    };
  }

  recipeParser(minChars: number): LargeDocumentParser<RecipeInput, ParseRecipeResult> {
    return {
      minChars,
      parse: async (input) => {
        try {
          return (await this.run({ kind: 'recipe', input }, input.path, this.timeoutMs)) as ParseRecipeResult;
        } catch (error) {
          if (error instanceof DocumentTooCostlyError) return { recipe: null, diagnostics: [this.notLoaded(input.path)], tenants: [], enabled: true };
          throw error;
        }
      },
    };
  }

  private async run(task: ValidationTask, path: string, deadlineMs: number): Promise<unknown> {
    try {
      return await this.pool.run(task, { signal: AbortSignal.timeout(deadlineMs) });
    } catch (error) {
      if (isAbort(error)) throw new DocumentTooCostlyError(path, deadlineMs);
      if (error instanceof Error && /queue is at limit/i.test(error.message)) throw this.queueFull();
      throw error;
    }
  }

  /**
   * Parses request bodies of at least `minChars` (graphql/server.ts). A caller's work like a
   * validation: refused with RATE_LIMITED when the queue is full; past the deadline, not JSON.
   */
  jsonParser(minChars: number, deadlineMs = JSON_DEADLINE_MS): LargeJsonParser {
    return {
      minChars,
      parse: async (text) => {
        if (this.pool.queueSize >= this.maxQueue) throw this.queueFull();
        try {
          return (await this.run({ kind: 'json', text }, 'the request body', deadlineMs)) as { value: unknown } | undefined;
        } catch (error) {
          if (error instanceof DocumentTooCostlyError) return undefined;
          throw error;
        }
      },
    };
  }

  /** Ends the workers (a running validation is cut off). */
  async close(): Promise<void> {
    await this.pool.close({ force: true });
  }

  private notLoaded(path: string): Diagnostic {
    return { severity: 'ERROR', path, line: 1, column: 1, message: `Reading '${path}' took longer than ${this.timeoutMs} ms, the limit (VANCE_VALIDATION_TIMEOUT_MS); it is not loaded. Split the document or shorten it` };
  }

  private queueFull(): LimitExceededError {
    return new LimitExceededError('RATE_LIMITED', 'validationQueue', this.maxQueue, 1_000,
      `Too many documents are being validated on this server (${this.maxQueue} waiting); try again in a moment`);
  }
}

/** The process's flags minus those a worker refuses (`npm start` runs `--no-node-snapshot`), plus tsx for a .ts worker. */
function workerExecArgv(): string[] {
  const inherited = inheritedWorkerFlags();
  // piscina require()s the worker file first; tsx's require hook lets that read TypeScript.
  return WORKER_FILE.endsWith('.ts') ? [...inherited, '--require', createRequire(__filename).resolve('tsx/cjs')] : inherited;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError' || (error as { code?: unknown }).code === 'ABORT_ERR');
}
