import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TypeOrmIdentityStore, TypeOrmProcessStore, TypeOrmTurnStore, type Database } from '../../api/src/persistence';
import { CHAT_LOG_CACHE_CHARS, ChatLogReader } from '../../api/src/persistence/chat-log-reader';
import { testDatabases } from '../support/databases';
import { createPlainProcess } from '../support/process-fixture';

// Issue 18 (memory that comes back): at 32 M characters the kept logs were most of what a day-like
// session left in the server's heap; the reader keeps to its character budget.
describe.each(testDatabases())('ChatLogReader budget ($name)', (driver) => {
  let db: Database;
  let turns: TypeOrmTurnStore;
  let acme: string;
  const processIds: string[] = [];

  beforeAll(async () => {
    db = await driver.open();
    const processes = new TypeOrmProcessStore(db.dataSource);
    turns = new TypeOrmTurnStore(db.dataSource);
    const identity = new TypeOrmIdentityStore(db.dataSource);
    acme = (await identity.createTenant('acme')).tenant.id;
    const alice = (await identity.createUser({ tenantId: acme, login: 'alice', role: 'MEMBER', tokenHash: 'h-alice' })).user.id;
    const project = (await identity.createProject(acme, 'p', 'NORMAL', alice)).id;
    const session = await processes.openSession(acme, project, alice, 'main');
    for (let i = 0; i < 4; i++) {
      const process = await createPlainProcess(processes, { tenantId: acme, projectId: project, sessionId: session.id, userId: alice }, `w${i}`);
      await processes.appendPending(acme, process.id, { sender: 'USER', senderName: 'alice', content: `hello ${i}` });
      const begun = (await turns.beginTurn(acme, process.id))!;
      await turns.appendMessage(acme, process.id, begun.turn.id, { role: 'assistant', senderName: 'w', content: `${i}`.padEnd(400, '.'), toolCall: null });
      processIds.push(process.id);
    }
  });
  afterAll(async () => {
    await db?.close();
  });

  it('never keeps more characters than its budget, and still returns every log whole', async () => {
    const reader = new ChatLogReader(db.dataSource, 1_000);
    for (let round = 0; round < 2; round++) {
      for (const [i, id] of processIds.entries()) {
        const log = await reader.list(acme, id);
        expect(log.map((m) => m.content)).toEqual([`hello ${i}`, `${i}`.padEnd(400, '.')]);
        expect(reader.keptChars()).toBeGreaterThan(0);
        expect(reader.keptChars()).toBeLessThanOrEqual(1_000);
      }
    }
  });

  it('by default keeps 4 M characters, not the 32 M that stayed in the heap after a session', async () => {
    expect(CHAT_LOG_CACHE_CHARS).toBe(4 * 1024 * 1024);
    const reader = new ChatLogReader(db.dataSource);
    for (const id of processIds) await reader.list(acme, id);
    expect(reader.keptChars()).toBe(4 * ('hello 0'.length + 400 + 1));
  });
});
