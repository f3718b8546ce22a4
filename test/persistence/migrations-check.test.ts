import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../api/src/persistence';
import { RemotePglite } from '../../api/src/persistence/pglite-remote';
import { pgliteTemplate } from '../support/pglite-template';

/**
 * The migrations check of a start (issue 18: the embedded start's time): on an up-to-date database
 * it is one SELECT of the applied names — TypeORM's own check first asked information_schema whether
 * its table exists (the slower of its two statements on a cold catalog).
 */
describe('the migrations check at start', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('opens an up-to-date database with one SELECT of the applied names and applies nothing', async () => {
    const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'vance-migrations-check-'));
    dirs.push(dataDir);
    const first = await openDatabase({ dataDir, loadDataDir: await pgliteTemplate() });
    await first.close();

    const sent: string[] = [];
    const exec = RemotePglite.prototype.execProtocolStream;
    const spy = vi.spyOn(RemotePglite.prototype, 'execProtocolStream').mockImplementation(function (this: RemotePglite, message, options) {
      sent.push(Buffer.from(message).toString('utf8'));
      return exec.call(this, message, options);
    });
    const logged: object[] = [];
    try {
      const db = await openDatabase({ dataDir, logger: { info: (obj) => void logged.push(obj) } });
      await db.close();
    } finally {
      spy.mockRestore();
    }
    expect(logged).toContainEqual(expect.objectContaining({ migrationsApplied: [] }));
    expect(sent.filter((text) => text.includes('information_schema'))).toEqual([]);
    expect(sent.filter((text) => /FROM "migrations"/.test(text))).toHaveLength(1);
  });
});
