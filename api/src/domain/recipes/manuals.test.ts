import { describe, expect, it } from 'vitest';
import { Manuals, sanitiseManualPaths } from './manuals';
import { cascadeWith, SCOPE } from './testing';

function manualsWith() {
  const { cascade, write } = cascadeWith([
    { path: '_vance/manuals/git.md', content: 'bundled git' },
    { path: '_vance/manuals/docs.md', content: 'bundled docs' },
    { path: '_vance/manuals/web/deep.md', content: 'nested' },
    { path: '_vance/eddie/manuals/git.md', content: 'eddie git' },
    { path: '_vance/manuals/notes.txt', content: 'not a manual' },
  ]);
  return { manuals: new Manuals(cascade), write };
}

describe('Manuals (seed 004 §6b)', () => {
  it('merges the folders in path order, first hit per name wins', async () => {
    const { manuals } = manualsWith();
    const list = await manuals.listManuals(SCOPE, ['_vance/eddie/manuals/', '_vance/manuals/']);
    expect(list.map((m) => [m.name, m.path, m.source])).toEqual([
      ['git', '_vance/eddie/manuals/git.md', 'RESOURCE'],
      ['docs', '_vance/manuals/docs.md', 'RESOURCE'],
    ]);
  });

  it('resolves each folder through the cascade, so a project copy wins', async () => {
    const { manuals, write } = manualsWith();
    await write('PROJECT', '_vance/manuals/docs.md', 'project docs');
    expect((await manuals.listManuals(SCOPE, ['_vance/manuals/'])).find((m) => m.name === 'docs')?.source).toBe('PROJECT');
    expect(await manuals.readManual(SCOPE, ['_vance/manuals/'], 'docs')).toMatchObject({ content: 'project docs', source: 'PROJECT' });
  });

  it('reads the first <folder><name>.md along the paths', async () => {
    const { manuals } = manualsWith();
    expect(await manuals.readManual(SCOPE, ['_vance/eddie/manuals/', '_vance/manuals/'], 'git')).toMatchObject({ content: 'eddie git', folder: '_vance/eddie/manuals/' });
    expect(await manuals.readManual(SCOPE, ['_vance/manuals/', '_vance/eddie/manuals/'], 'git.md')).toMatchObject({ content: 'bundled git' });
    expect(await manuals.readManual(SCOPE, ['_vance/manuals/'], 'nope')).toBeNull();
    expect(await manuals.readManual(SCOPE, ['_vance/manuals/'], '../secrets')).toBeNull();
  });

  it('counts nested folders only when listed as their own path', async () => {
    const { manuals } = manualsWith();
    expect((await manuals.listManuals(SCOPE, ['_vance/manuals/web'])).map((m) => m.name)).toEqual(['deep']);
  });

  it('sanitises paths: backslashes, a leading slash, a missing trailing slash; refuses ..', () => {
    expect(sanitiseManualPaths(['\\_vance\\manuals', '/_vance/manuals/', 'a/../b', '..', '', 7])).toEqual({
      folders: ['_vance/manuals/'],
      rejected: ['a/../b', '..', '', '7'],
    });
  });
});
