import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';

// api/bin is plain CommonJS (it runs before tsx is loaded, or without it).
const { compiledIsFresh } = createRequire(__filename)('../../api/bin/compiled-cli.js') as { compiledIsFresh: (apiDir: string) => boolean };

// Issue 18: `vance lint` loaded its 107 TypeScript modules through tsx even when a build was there
// (~1 s more CPU per start). The bin now runs the build, but only when no source is newer than it.
describe('the compiled CLI stands in for the sources only when it is fresh', () => {
  let root: string;
  let api: string;
  const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);
  const write = (file: string, seconds: number) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '');
    at(file, seconds);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'vance-compiled-cli-'));
    api = path.join(root, 'api');
    write(path.join(root, 'tsconfig.json'), 1_000);
    write(path.join(api, 'tsconfig.json'), 1_000);
    write(path.join(api, 'src/cli/main.ts'), 1_000);
    write(path.join(api, 'src/domain/skills/parse-skill.ts'), 1_000);
    write(path.join(api, 'dist/api/src/cli/main.js'), 2_000);
    write(path.join(api, 'dist/api/tsconfig.tsbuildinfo'), 2_000);
  });

  it('uses a build newer than every source', () => {
    expect(compiledIsFresh(api)).toBe(true);
  });

  it('does not use a build older than a source file, however deep', () => {
    at(path.join(api, 'src/domain/skills/parse-skill.ts'), 3_000);
    expect(compiledIsFresh(api)).toBe(false);
  });

  it('does not use a build older than a new source file or a tsconfig', () => {
    write(path.join(api, 'src/domain/new-module.ts'), 3_000);
    expect(compiledIsFresh(api)).toBe(false);
    at(path.join(api, 'src/domain/new-module.ts'), 1_000);
    expect(compiledIsFresh(api)).toBe(true);
    at(path.join(root, 'tsconfig.json'), 3_000);
    expect(compiledIsFresh(api)).toBe(false);
  });

  it('does not use a build that is absent or has no CLI entry', () => {
    const empty = path.join(root, 'other-api');
    write(path.join(empty, 'src/cli/main.ts'), 1_000);
    expect(compiledIsFresh(empty)).toBe(false);
    write(path.join(empty, 'dist/api/tsconfig.tsbuildinfo'), 2_000);
    expect(compiledIsFresh(empty)).toBe(false);
  });
});
