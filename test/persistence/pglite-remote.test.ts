import { afterAll, describe, expect, it } from 'vitest';
import { serialize } from 'pg-protocol';
import { RemotePglite } from '../../api/src/persistence/pglite-remote';

/**
 * The embedded PGlite on its worker thread (issue 13: on the server's thread its statements held the
 * event loop). The wire protocol goes through as bytes; an extended query is one round trip; a
 * failing statement answers with an error message; a thread that dies fails what waits and what comes.
 */
describe('RemotePglite', () => {
  const opened: RemotePglite[] = [];
  afterAll(async () => Promise.all(opened.map((r) => r.close().catch(() => {}))));
  const open = async () => {
    const remote = await RemotePglite.open({});
    opened.push(remote);
    return remote;
  };
  // One instance for the tests that leave it as it was (a PGlite start is initdb: seconds).
  let shared: Promise<RemotePglite> | null = null;
  const sharedRemote = () => (shared ??= open());
  const names = (messages: readonly { name: string }[]) => messages.map((m) => m.name);

  it('answers a simple query with pg-protocol messages', async () => {
    const remote = await sharedRemote();
    const reply = await remote.execProtocolStream(serialize.query('SELECT 41 + 1 AS n'));
    expect(names(reply)).toEqual(['rowDescription', 'dataRow', 'commandComplete', 'readyForQuery']);
    expect((reply[1] as unknown as { fields: string[] }).fields).toEqual(['42']);
  });

  it('holds Parse, Bind, Describe and Execute until Sync, and answers them all with it', async () => {
    const remote = await sharedRemote();
    expect(await remote.execProtocolStream(serialize.parse({ text: 'SELECT $1::int * 2 AS n', types: [] }))).toEqual([]);
    expect(await remote.execProtocolStream(serialize.bind({ values: ['21'] }))).toEqual([]);
    expect(await remote.execProtocolStream(serialize.describe({ type: 'P' }))).toEqual([]);
    expect(await remote.execProtocolStream(serialize.execute({}))).toEqual([]);
    const reply = await remote.execProtocolStream(serialize.sync());
    expect(names(reply)).toEqual(['parseComplete', 'bindComplete', 'rowDescription', 'dataRow', 'commandComplete', 'readyForQuery']);
    expect((reply[3] as unknown as { fields: string[] }).fields).toEqual(['42']);
  });

  it('answers a failing statement with an error message (code and all), and goes on', async () => {
    const remote = await sharedRemote();
    const reply = await remote.execProtocolStream(serialize.query('SELECT * FROM no_such_table'));
    const error = reply.find((m) => m.name === 'error') as unknown as { code: string; message: string };
    expect(error.code).toBe('42P01');
    expect(error.message).toContain('no_such_table');
    expect(names(await remote.execProtocolStream(serialize.query('SELECT 1')))).toContain('dataRow');
  });

  it('dumps its data directory and starts another from the dump', async () => {
    const remote = await open();
    await remote.execProtocolStream(serialize.query('CREATE TABLE kept (v text); INSERT INTO kept VALUES (\'here\')'));
    const tar = await remote.dumpDataDir('none');
    const copy = await RemotePglite.open({ loadDataDir: tar });
    opened.push(copy);
    const reply = await copy.execProtocolStream(serialize.query('SELECT v FROM kept'));
    expect((reply.find((m) => m.name === 'dataRow') as unknown as { fields: string[] }).fields).toEqual(['here']);
  });

  it('fails what waits and what comes when its thread dies, instead of hanging', async () => {
    const remote = await open();
    const worker = (remote as unknown as { worker: { terminate(): Promise<number> } }).worker;
    const waiting = remote.execProtocolStream(serialize.query('SELECT pg_sleep(0.2)'));
    await worker.terminate();
    await expect(waiting).rejects.toThrow('the PGlite thread ended');
    await expect(remote.execProtocolStream(serialize.query('SELECT 1'))).rejects.toThrow('the PGlite thread ended');
  });
});
