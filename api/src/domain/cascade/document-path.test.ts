import { describe, expect, it } from 'vitest';
import { normalizeDocumentPath, normalizePathPrefix } from './document-path';
import { InvalidDocumentPathError } from './errors';

function rejection(run: () => unknown): InvalidDocumentPathError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidDocumentPathError);
    return error as InvalidDocumentPathError;
  }
  throw new Error('expected an InvalidDocumentPathError');
}

describe('normalizeDocumentPath', () => {
  it.each([
    ['_vance\\skills\\x\\SKILL.md', '_vance/skills/x/SKILL.md'],
    ['a//b/./c', 'a/b/c'],
    ['./a/b', 'a/b'],
    ['a/b/', 'a/b'],
    ['_vance/recipes/x.yaml', '_vance/recipes/x.yaml'],
    ['names with spaces/ok.md', 'names with spaces/ok.md'],
    ['über/ä.md', 'über/ä.md'],
  ])('normalises %j to %j so one document has one key', (raw, expected) => {
    expect(normalizeDocumentPath(raw)).toBe(expected);
  });

  it('answers a path seen before the same way, refuses an invalid one every time, and stays right past its memo', () => {
    for (let round = 0; round < 2; round++) {
      expect(normalizeDocumentPath('a\\b/./c/')).toBe('a/b/c');
      expect(rejection(() => normalizeDocumentPath('a/../b')).message).toContain("'..'");
    }
    for (let i = 0; i < 3_000; i++) expect(normalizeDocumentPath(`d/./${i}.md`)).toBe(`d/${i}.md`);
    expect(normalizeDocumentPath('a\\b/./c/')).toBe('a/b/c');
  });

  it('is idempotent', () => {
    const once = normalizeDocumentPath('a\\\\b/./c/');
    expect(normalizeDocumentPath(once)).toBe(once);
  });

  it.each([
    ['..', '..'],
    ['leading ..', '../a'],
    ['inner ..', 'a/../b'],
    ['trailing ..', 'a/b/..'],
    ['backslash ..', 'a\\..\\b'],
    ['a leading /', '/etc/passwd'],
    ['a leading \\', '\\a'],
    ['a drive letter', 'C:\\x'],
    ['a drive letter with /', 'c:/x'],
    ['a NUL', 'a\u0000b'],
    ['a newline', 'a\nb'],
    ['a DEL', 'a\u007fb'],
    ['an empty string', ''],
    ['only dots and slashes', './/.'],
    ['a segment with edge whitespace', 'a/ b/c'],
    ['an over-long path', 'a/'.repeat(600)],
    ['an over-long segment', 'x'.repeat(256)],
  ])('rejects %s with INVALID_DOCUMENT_PATH naming the field path', (_what, raw) => {
    const error = rejection(() => normalizeDocumentPath(raw));
    expect(error.code).toBe('INVALID_DOCUMENT_PATH');
    expect(error.category).toBe('BAD_INPUT');
    expect(error.diagnostics).toHaveLength(1);
    expect(error.diagnostics[0]).toMatchObject({ field: 'path', severity: 'ERROR' });
  });

  it('accepts a path of exactly the maximum length', () => {
    const raw = 'x'.repeat(200) + ('/' + 'y'.repeat(200)).repeat(4) + '/' + 'z'.repeat(19);
    expect(raw).toHaveLength(1024);
    expect(normalizeDocumentPath(raw)).toBe(raw);
  });

  it('keeps the raw path (truncated when over-long) in the diagnostic', () => {
    expect(rejection(() => normalizeDocumentPath('a/../b')).diagnostics[0]?.path).toBe('a/../b');
    const long = rejection(() => normalizeDocumentPath('q'.repeat(5000)));
    expect(long.diagnostics[0]?.path?.length).toBeLessThan(100);
  });

  it('does not treat dots inside names as traversal', () => {
    expect(normalizeDocumentPath('a/..b/c..')).toBe('a/..b/c..');
    expect(normalizeDocumentPath('.hidden/x')).toBe('.hidden/x');
  });
});

describe('normalizePathPrefix', () => {
  it.each([
    ['', ''],
    ['_vance/skills/', '_vance/skills/'],
    ['_vance\\skills\\', '_vance/skills/'],
    ['_vance//skills/./', '_vance/skills/'],
    ['_vance/skills', '_vance/skills'],
    ['./', ''],
  ])('normalises the prefix %j to %j, keeping a trailing slash', (raw, expected) => {
    expect(normalizePathPrefix(raw)).toBe(expected);
  });

  it.each(['../', 'a/../', '/a/', 'C:\\', 'a\u0000'])('rejects the prefix %j like a path', (raw) => {
    expect(rejection(() => normalizePathPrefix(raw)).code).toBe('INVALID_DOCUMENT_PATH');
  });
});

describe('normalizeDocumentPath and C1 control characters', () => {
  // Bug: CONTROL_CHARS covers C0 and DEL only; the C1 controls U+0080–U+009F (NEL, CSI, …) are
  // control characters too (Unicode Cc) and pass, e.g. into log lines and editors.
  it.each(['a\u0085b', 'a\u009b31mb'])('rejects the C1 control character in %j', (raw) => {
    expect(() => normalizeDocumentPath(raw)).toThrow(InvalidDocumentPathError);
  });
});
