import { getHeapStatistics } from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import { Parser } from 'pg-protocol/dist/parser';
import type { BackendMessage } from 'pg-protocol/dist/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execRaw } from '../../api/src/persistence/pglite-exec';
import { collectGarbage } from '../bench/harness';
import { pgliteTemplate } from '../support/pglite-template';

const parse = (bytes: Uint8Array): BackendMessage[] => {
  const messages: BackendMessage[] = [];
  new Parser().parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), (m) => messages.push(m));
  return messages;
};
const BIG = 1_000_000;
const bigQuery = serialize.query(`SELECT repeat('x', ${BIG}) AS big`);

/**
 * The PGlite thread's statement path (issue 18, memory that comes back): the reply bytes come back
 * whole, in their own buffer, and PGlite keeps nothing of them — through `execProtocolRaw` it kept
 * every reply parsed into messages, so the thread's heap grew by each row the server ever read.
 */
describe('execRaw', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create({ loadDataDir: await pgliteTemplate() });
  });
  afterAll(async () => pglite?.close());

  it('returns the backend reply as bytes of its own, a large one whole', async () => {
    const small = await execRaw(pglite, serialize.query('SELECT 41 + 1 AS n'));
    expect(small.byteOffset).toBe(0);
    expect(small.byteLength).toBe(small.buffer.byteLength);
    const messages = parse(small);
    expect(messages.map((m) => m.name)).toEqual(['rowDescription', 'dataRow', 'commandComplete', 'readyForQuery']);
    expect((messages[1] as unknown as { fields: string[] }).fields).toEqual(['42']);
    const big = parse(await execRaw(pglite, bigQuery));
    expect(big.map((m) => m.name)).toEqual(['rowDescription', 'dataRow', 'commandComplete', 'readyForQuery']);
    expect((big[1] as unknown as { fields: string[] }).fields[0]).toBe('x'.repeat(BIG));
  });

  it('answers a failing statement with an error message, and the next one normally', async () => {
    expect(parse(await execRaw(pglite, serialize.query('SELECT * FROM no_such_table'))).map((m) => m.name)).toEqual(['error', 'readyForQuery']);
    expect(parse(await execRaw(pglite, serialize.query('SELECT 1'))).map((m) => m.name)).toContain('dataRow');
  });

  it('keeps nothing of the replies: the heap after 30 replies of 1 MB is back where it was', async () => {
    for (let i = 0; i < 2; i++) await execRaw(pglite, bigQuery);
    collectGarbage();
    const before = getHeapStatistics().used_heap_size;
    for (let i = 0; i < 30; i++) await execRaw(pglite, bigQuery);
    collectGarbage();
    const grownMb = (getHeapStatistics().used_heap_size - before) / 2 ** 20;
    // Kept, the 30 rows alone would be 30 MB (one-byte strings of 1,000,000 characters).
    expect(grownMb).toBeLessThan(8);
  });
});
