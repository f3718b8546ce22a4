import type { PGlite } from '@electric-sql/pglite';
import { concatBytes } from './concat-bytes';

/**
 * Runs wire-protocol bytes on PGlite and returns the backend's reply bytes, copied out of its memory.
 *
 * Not `execProtocolRaw`: besides returning the bytes, PGlite (0.5) parses every reply into message
 * objects and appends them to a results list that only `execProtocol`/`execProtocolStream` reset.
 * Through `execProtocolRaw` alone that list kept every row the server ever read — 170 MB of the PGlite
 * thread's heap after a 1,000-operation session, the most of the server's RSS growth (issue 18).
 * `execProtocolRawStream` hands over the raw bytes only: nothing is parsed or kept on this thread
 * (the server's thread parses them with pg-protocol anyway).
 */
export async function execRaw(pglite: PGlite, message: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  // Each chunk is a view into PGlite's memory, valid only until the next write: copied at once.
  await pglite.execProtocolRawStream(message, { onRawData: (data) => void chunks.push(data.slice()) });
  return chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
}
