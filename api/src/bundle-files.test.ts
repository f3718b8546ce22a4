import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLE_FILE, BUNDLE_INPUTS_FILE, bundleIsCurrent } from './bundle-files';

describe('the bundled server is used only when it is current', () => {
  const folder = fs.mkdtempSync(path.join(tmpdir(), 'vance-bundle-files-'));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
  const at = (file: string, seconds: number) => fs.utimesSync(path.join(folder, file), seconds, seconds);
  fs.mkdirSync(path.join(folder, 'persistence'));
  fs.writeFileSync(path.join(folder, 'app.js'), '');
  fs.writeFileSync(path.join(folder, 'persistence/pool.js'), '');

  it('no bundle, or no list of its inputs: not current', () => {
    expect(bundleIsCurrent(folder)).toBe(false);
    fs.writeFileSync(path.join(folder, BUNDLE_FILE), '');
    expect(bundleIsCurrent(folder)).toBe(false);
  });

  it('current while no input is newer than the bundle; stale after one is rewritten or removed', () => {
    fs.writeFileSync(path.join(folder, BUNDLE_INPUTS_FILE), JSON.stringify(['app.js', 'persistence/pool.js']));
    at('app.js', 1_000);
    at('persistence/pool.js', 1_000);
    at(BUNDLE_FILE, 2_000);
    expect(bundleIsCurrent(folder)).toBe(true);
    at('persistence/pool.js', 3_000); // a bare `tsc -b api` rewrote it
    expect(bundleIsCurrent(folder)).toBe(false);
    at('persistence/pool.js', 1_000);
    fs.rmSync(path.join(folder, 'app.js'));
    expect(bundleIsCurrent(folder)).toBe(false);
  });
});
