/**
 * The embedded PGlite on a worker thread. PGlite runs each statement synchronously where it lives,
 * and a query's promise resolves without I/O: on the server's thread a turn's chain of statements
 * was one task that held the event loop 22–300 ms, and every other tenant waited (issue 13). Here
 * the statements run on their own thread; the server's thread only passes wire-protocol bytes and
 * parses the replies with pg's own parser (pg-protocol), as it does for a PostgreSQL socket.
 *
 * `RemotePglite` offers the part of PGlite's interface that PglitePgConnection and the pool use:
 * `waitReady`, `execProtocolStream` (messages, errors as messages: the connection never asks it to
 * throw), `dumpDataDir` and `close`.
 */
import { extname, join } from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { inheritedWorkerFlags } from '../worker-flags';
import { concatBytes } from './concat-bytes';
import { Parser } from 'pg-protocol/dist/parser';
import type { BackendMessage } from 'pg-protocol/dist/messages';
import type { PgliteReady, PgliteReply, PgliteRequest, PgliteThreadData } from './pglite-thread';

type PgliteRequestBody = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;

const THREAD_FILE = join(__dirname, `pglite-thread${extname(__filename)}`);

/** Frontend messages answered only at the next Sync: Parse, Bind, Describe, Execute, Close. */
const HELD_UNTIL_SYNC = new Set(['P', 'B', 'D', 'E', 'C'].map((c) => c.charCodeAt(0)));

export interface RemotePgliteOptions {
  readonly dataDir?: string | undefined;
  readonly loadDataDir?: Blob | undefined;
  /** A template cluster the thread copies into the empty `dataDir` before opening it (pglite-template.ts). */
  readonly seedFrom?: string | undefined;
}

export class RemotePglite {
  waitReady: Promise<void>;
  private readonly pending = new Map<number, { resolve: (reply: PgliteReply) => void; reject: (err: Error) => void }>();
  private nextId = 1;
  private held: Uint8Array[] = [];
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    this.waitReady = new Promise<void>((resolve, reject) => {
      worker.once('message', (first: PgliteReady) => {
        if (!first.ready) return reject(new Error(`PGlite did not start: ${first.message}`));
        worker.on('message', (reply: PgliteReply) => {
          const waiting = this.pending.get(reply.id);
          this.pending.delete(reply.id);
          waiting?.resolve(reply);
        });
        resolve();
      });
    });
    let failStart: (err: Error) => void = () => {};
    const started = new Promise<never>((_, reject) => { failStart = reject; });
    this.waitReady = Promise.race([this.waitReady, started]);
    const fail = (err: Error) => {
      failStart(err);
      this.failure ??= err;
      for (const waiting of this.pending.values()) waiting.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the PGlite thread ended (exit code ${code})`)));
    // A rejected start is reported by open(); no unhandled rejection if nobody waits.
    this.waitReady.catch(() => {});
  }

  static async open(options: RemotePgliteOptions): Promise<RemotePglite> {
    const workerData: PgliteThreadData = {
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.seedFrom ? { seedFrom: options.seedFrom } : {}),
      ...(options.loadDataDir ? { loadDataDir: await options.loadDataDir.arrayBuffer() } : {}),
    };
    const transferList = workerData.loadDataDir ? [workerData.loadDataDir] : [];
    const execArgv = inheritedWorkerFlags();
    // Under tsx or vitest (tests, `npm run dev`) the thread is the .ts file, read through tsx's require hook.
    const worker = THREAD_FILE.endsWith('.ts')
      ? new Worker(`require(${JSON.stringify(createRequire(__filename).resolve('tsx/cjs'))}); require(${JSON.stringify(THREAD_FILE)});`, { eval: true, workerData, execArgv, transferList })
      : new Worker(THREAD_FILE, { workerData, execArgv, transferList });
    const remote = new RemotePglite(worker);
    try {
      await remote.waitReady;
    } catch (err) {
      await worker.terminate();
      throw err;
    }
    return remote;
  }

  /**
   * pg sends an extended-protocol query as Parse, Bind, Describe, Execute, then Sync, and the
   * connection hands them over one at a time, each after the previous one's reply. As a socket
   * would, those before Sync are held and sent with it in one round trip to the thread (the
   * backend answers them all at Sync anyway); their own replies are empty, and the replies of the
   * whole batch come with Sync's, in order.
   */
  async execProtocolStream(message: Uint8Array, _options?: { throwOnError?: boolean }): Promise<BackendMessage[]> {
    if (HELD_UNTIL_SYNC.has(message[0]!)) {
      this.held.push(new Uint8Array(message));
      return [];
    }
    const batch = concatBytes([...this.held, message]);
    this.held = [];
    const reply = await this.request({ op: 'exec', bytes: batch }, [batch.buffer as ArrayBuffer]);
    const messages: BackendMessage[] = [];
    if (reply.ok && reply.bytes && reply.bytes.length > 0) {
      new Parser().parse(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength), (m) => messages.push(m));
    }
    return messages;
  }

  async dumpDataDir(_compression?: 'none'): Promise<Blob> {
    const reply = await this.request({ op: 'dump' });
    return new Blob([reply.ok && reply.tar ? reply.tar : new ArrayBuffer(0)]);
  }

  async close(): Promise<void> {
    if (this.failure) return;
    try {
      await this.request({ op: 'close' });
    } finally {
      await this.worker.terminate();
    }
  }

  private request(body: PgliteRequestBody, transfer: ArrayBuffer[] = []): Promise<PgliteReply & { ok: true }> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: (reply) => (reply.ok ? resolve(reply) : reject(new Error(reply.message))),
        reject,
      });
      this.worker.postMessage({ ...body, id } as PgliteRequest, transfer);
    });
  }
}
