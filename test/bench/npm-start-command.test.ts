import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { npmStartServerCommand } from './npm-start-command';

describe('npmStartServerCommand (how the embedded-start bench starts the server)', () => {
  // Issue 18 (memory that comes back): glibc keeps large freed buffers unless its mmap threshold is
  // fixed, and V8 keeps a young generation grown to 16 MB semi-spaces; npm start sets both, and the
  // bench measures the server with what npm start sets.
  it('reads npm start: glibc mmap threshold set, node flags, the built entry', () => {
    expect(npmStartServerCommand()).toEqual({
      env: { MALLOC_MMAP_THRESHOLD_: '131072' },
      nodeFlags: ['--no-node-snapshot', '--max-semi-space-size=4'],
      entry: 'api/dist/api/src/main.js',
    });
  });

  it('refuses a start script whose last step is not node with an entry', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vance-npm-start-'));
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { start: 'npm run build && tsx api/src/main.ts' } }));
    expect(() => npmStartServerCommand(dir)).toThrow(/does not run node/);
  });
});
