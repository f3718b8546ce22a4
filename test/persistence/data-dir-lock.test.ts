import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from '../../api/src/persistence/data-dir-lock';

describe('the embedded data directory lock', () => {
  it('refuses a second owner while the first process lives, naming its pid', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vance-lock-'));
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(path.join(dir, 'vance.lock'), String(holder.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
      expect(() => lockDataDir(dir)).toThrow(String(holder.pid));
    } finally {
      holder.kill();
    }
  });

  it('takes over a stale lock whose process is gone, and releases it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vance-lock-'));
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => gone.once('exit', r));
    writeFileSync(path.join(dir, 'vance.lock'), String(gone.pid));
    const release = lockDataDir(dir);
    expect(existsSync(path.join(dir, 'vance.lock'))).toBe(true);
    release();
    expect(existsSync(path.join(dir, 'vance.lock'))).toBe(false);
  });
});
