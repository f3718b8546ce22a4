import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../api/src/persistence';
import { isInitialised, seedFromTemplate, templateDir } from '../../api/src/persistence/pglite-template';
import { pgliteTemplate } from '../support/pglite-template';

// Issue 18: a fresh embedded data directory starts as a copy of the packaged template (no initdb, no
// migration); without a template that fits, the first open runs initdb and the migrations, then
// reopens PGlite so that initdb's grown WebAssembly memory is given back.
const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = fs.mkdtempSync(path.join(tmpdir(), `vance-${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function recordingLogger() {
  const entries: Record<string, unknown>[] = [];
  return { entries, info: (obj: object, msg?: string) => void entries.push({ ...obj, msg }) };
}

describe('the packaged template of an embedded data directory', () => {
  it('a fresh data directory is a copy of the template: no migration, no reopen, not its lock', async () => {
    const root = tempDir('template-root');
    // The migrated test template, unpacked into the folder of this build's key.
    const built = await openDatabase({ dataDir: templateDir(root), loadDataDir: await pgliteTemplate() });
    await built.close();
    fs.writeFileSync(path.join(templateDir(root), 'vance.lock'), '999999'); // a stray lock must not travel

    const dataDir = tempDir('seeded');
    const logger = recordingLogger();
    const db = await openDatabase({ dataDir, templateRoot: root, logger });
    try {
      const open = logger.entries.find((e) => e.msg === 'database open')!;
      expect(open.migrationsApplied).toEqual([]);
      expect(open.reopened).toBe(false);
      const n = ((await db.dataSource.query('SELECT count(*)::int AS n FROM migrations')) as { n: number }[])[0]!.n;
      expect(n).toBeGreaterThan(0);
    } finally {
      await db.close();
    }
    expect(fs.existsSync(path.join(dataDir, 'vance.lock'))).toBe(false); // ours, released at close
  }, 120_000);

  it('a template made for other migrations is not used, nor is one over an initialised directory', () => {
    const root = tempDir('template-other');
    const other = path.join(root, '0000000000000000');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'PG_VERSION'), '18\n');
    const dataDir = tempDir('unseeded');
    expect(seedFromTemplate(dataDir, root)).toBe(false);
    expect(fs.readdirSync(dataDir)).toEqual([]);

    fs.mkdirSync(templateDir(root));
    fs.writeFileSync(path.join(templateDir(root), 'PG_VERSION'), '18\n');
    fs.writeFileSync(path.join(templateDir(root), 'postgresql.conf'), 'from the template\n');
    fs.writeFileSync(path.join(dataDir, 'PG_VERSION'), '18\n');
    expect(seedFromTemplate(dataDir, root)).toBe(false); // a cluster is there: never overwritten
    expect(fs.readdirSync(dataDir)).toEqual(['PG_VERSION']);
    fs.rmSync(path.join(dataDir, 'PG_VERSION'));
    expect(seedFromTemplate(dataDir, root)).toBe(true);
    expect(isInitialised(dataDir)).toBe(true);
    expect(fs.readFileSync(path.join(dataDir, 'postgresql.conf'), 'utf8')).toBe('from the template\n');
  });

  it('without a template, the first open runs initdb and the migrations, then reopens PGlite', async () => {
    const dataDir = tempDir('initdb');
    const logger = recordingLogger();
    const db = await openDatabase({ dataDir, templateRoot: tempDir('no-template'), logger });
    try {
      const open = logger.entries.find((e) => e.msg === 'database open')!;
      expect((open.migrationsApplied as string[]).length).toBeGreaterThan(0);
      expect(open.reopened).toBe(true);
      const n = ((await db.dataSource.query('SELECT count(*)::int AS n FROM migrations')) as { n: number }[])[0]!.n;
      expect(n).toBe((open.migrationsApplied as string[]).length); // the reopened PGlite sees them
    } finally {
      await db.close();
    }
    const again = recordingLogger();
    const reopened = await openDatabase({ dataDir, logger: again });
    await reopened.close();
    expect(again.entries.find((e) => e.msg === 'database open')).toMatchObject({ migrationsApplied: [], reopened: false });
  }, 180_000);
});

describe('npm run build', () => {
  // A merge once dropped this step: every first start then ran initdb and the migrations (7-8 s
  // on a quiet machine instead of a copy), with nothing failing.
  it('makes the packaged template after compiling, so that npm start on a fresh clone has one', () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { scripts: Record<string, string> };
    const steps = manifest.scripts.build!.split('&&').map((step) => step.trim());
    expect(steps[0]).toBe('tsc -b api');
    expect(steps.slice(1)).toContain('node --no-node-snapshot api/dist/api/src/build-pglite-template.js');
    expect(manifest.scripts.start).toMatch(/^npm run build && /);
  });
});
