import { describe, expect, it } from 'vitest';
import { manualCandidates, parseManualName } from './manual-name';

describe('manual names (issue 16)', () => {
  it('canonicalises the accepted forms to a relative .md path', () => {
    expect(parseManualName(' git ')).toEqual({ ok: true, path: 'git.md' });
    expect(parseManualName('git.MD')).toEqual({ ok: true, path: 'git.MD' });
    expect(parseManualName('essay\\STYLE')).toEqual({ ok: true, path: 'essay/STYLE.md' });
    expect(parseManualName('./_vance//manuals/essay/STYLE.md')).toEqual({ ok: true, path: '_vance/manuals/essay/STYLE.md' });
  });

  it('gives the reason for an invalid name', () => {
    expect(parseManualName('a/../b')).toMatchObject({ ok: false, reason: expect.stringMatching(/'\.\.' segments/) });
    expect(parseManualName('\\\\server\\x')).toMatchObject({ ok: false, reason: expect.stringMatching(/absolute/) });
    expect(parseManualName('. / .')).toMatchObject({ ok: false, reason: expect.stringMatching(/whitespace|blank/) });
    expect(parseManualName('')).toMatchObject({ ok: false, reason: 'the name is blank' });
  });

  it('tries only paths inside the folders: full path, then per folder, then an overlapping folder tail', () => {
    expect(manualCandidates(['_vance/eddie/manuals/', '_vance/manuals/'], '_vance/manuals/git.md').map((c) => c.path)).toEqual([
      '_vance/manuals/git.md', '_vance/eddie/manuals/_vance/manuals/git.md', '_vance/manuals/_vance/manuals/git.md',
    ]);
    expect(manualCandidates(['docs/essay/'], 'essay/STYLE.md').map((c) => c.path)).toEqual(['docs/essay/essay/STYLE.md', 'docs/essay/STYLE.md']);
    // A folder that merely ends in the same letters is no overlap.
    expect(manualCandidates(['docs/xessay/'], 'essay/STYLE.md').map((c) => c.path)).toEqual(['docs/xessay/essay/STYLE.md']);
  });
});
