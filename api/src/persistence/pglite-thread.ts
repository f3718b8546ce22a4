/**
 * The worker thread that hosts the embedded PGlite (pglite-remote.ts says why). It runs one PGlite
 * and answers, one request at a time in arrival order: `exec` (wire-protocol bytes in, the backend's
 * reply bytes out, transferred), `dump` (the data directory as a tar) and `close`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { execRaw } from './pglite-exec';
import { copyTemplate } from './pglite-template-copy';

export interface PgliteThreadData {
  readonly dataDir?: string;
  readonly loadDataDir?: ArrayBuffer;
  /** Copied into `dataDir` first (a fresh directory from the packaged template), here so that the server's thread goes on loading. */
  readonly seedFrom?: string;
}
export type PgliteRequest = { id: number; op: 'exec'; bytes: Uint8Array } | { id: number; op: 'dump' } | { id: number; op: 'close' };
export type PgliteReply = { id: number; ok: true; bytes?: Uint8Array; tar?: ArrayBuffer } | { id: number; ok: false; message: string };
export type PgliteReady = { ready: true } | { ready: false; message: string };

/**
 * PostgreSQL's default shared_buffers (128 MB) lives inside PGlite's WebAssembly memory, which never
 * shrinks: it made ~130 MB of the embedded RSS (issue 18). An embedded database is small and its
 * files sit in the OS page cache, so 16 MB of buffers cost a turn nothing measurable.
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

const port = parentPort!;
const data = workerData as PgliteThreadData;

async function main(): Promise<void> {
  let pglite: PGlite;
  try {
    if (data.seedFrom && data.dataDir) copyTemplate(data.seedFrom, data.dataDir);
    pglite = await PGlite.create({
      startParams: START_PARAMS,
      ...(data.dataDir ? { dataDir: data.dataDir } : {}),
      ...(data.loadDataDir ? { loadDataDir: new Blob([data.loadDataDir]) } : {}),
    });
  } catch (err) {
    port.postMessage({ ready: false, message: err instanceof Error ? err.message : String(err) } satisfies PgliteReady);
    return;
  }
  port.postMessage({ ready: true } satisfies PgliteReady);
  // Requests are served in order: the pg connection on the other side already sends one at a time.
  let queue = Promise.resolve();
  port.on('message', (request: PgliteRequest) => {
    queue = queue.then(() => serve(pglite, request));
  });
}

async function serve(pglite: PGlite, request: PgliteRequest): Promise<void> {
  try {
    if (request.op === 'exec') {
      const reply = await execRaw(pglite, request.bytes);
      port.postMessage({ id: request.id, ok: true, bytes: reply } satisfies PgliteReply, [reply.buffer]);
    } else if (request.op === 'dump') {
      const tar = await (await pglite.dumpDataDir('none')).arrayBuffer();
      port.postMessage({ id: request.id, ok: true, tar } satisfies PgliteReply, [tar]);
    } else {
      await pglite.close();
      port.postMessage({ id: request.id, ok: true } satisfies PgliteReply);
      port.close();
    }
  } catch (err) {
    port.postMessage({ id: request.id, ok: false, message: err instanceof Error ? err.message : String(err) } satisfies PgliteReply);
  }
}

void main();
