import { describe, expect, it } from 'vitest';
import { anySelects, expandSelectors, matchesSelector, parseToolSelector, selectorProblem } from './select';
import type { ToolDescriptor } from './tool-descriptor';

const TOOLS: ToolDescriptor[] = [
  { name: 'doc_read', labels: ['read'] },
  { name: 'doc_write', labels: ['write'] },
  { name: 'doc_purge', labels: ['write', 'destructive'] },
  { name: 'web_fetch', labels: ['read', 'side-effect'] },
];

describe('tool selectors', () => {
  it.each([
    ['doc_write', { kind: 'NAME', name: 'doc_write' }],
    [' @Write ', { kind: 'LABEL', label: 'write' }],
    ['doc_*', { kind: 'PREFIX', prefix: 'doc_' }],
    ['*', { kind: 'PREFIX', prefix: '' }],
    ['@mcp:chrome', { kind: 'LABEL', label: 'mcp:chrome' }],
  ])('parses %j', (raw, selector) => {
    expect(parseToolSelector(raw)).toEqual(selector);
  });

  it.each(['', '@', 'doc_*_x', '*doc', 'doc write', '@ write'])('rejects %j with a reason', (raw) => {
    expect(selectorProblem(raw)).toEqual(expect.any(String));
    expect(parseToolSelector(raw)).toBeNull();
  });

  it('matches by exact name, by label case-insensitively and by prefix', () => {
    const purge = TOOLS[2]!;
    expect(matchesSelector(purge, { kind: 'NAME', name: 'doc_purge' })).toBe(true);
    expect(matchesSelector(purge, { kind: 'NAME', name: 'doc_pur' })).toBe(false);
    expect(matchesSelector(purge, { kind: 'LABEL', label: 'destructive' })).toBe(true);
    expect(matchesSelector(purge, { kind: 'PREFIX', prefix: 'doc_' })).toBe(true);
    expect(anySelects(['@read', 'web_*'], purge)).toBe(false);
  });

  // Issue 15: an unknown plain name was kept, so previews listed tools the model never got.
  it('expands entries against the known tools; an unknown plain name expands to nothing like any selector', () => {
    const expansion = expandSelectors(['@write', 'client_exec_run', '@browser', 'zzz_*'], TOOLS);
    expect(expansion.names).toEqual(['doc_write', 'doc_purge']);
    expect(expansion.unmatched).toEqual(['client_exec_run', '@browser', 'zzz_*']);
  });
});
