import { describe, expect, it } from 'vitest';
import { StaticToolCatalog } from './tool-descriptor';
import { findUnresolvedTools, unresolvedReason } from './unresolved-tools';

const CATALOG = new StaticToolCatalog([{ name: 'doc_read', labels: ['read'] }, { name: 'respond', labels: ['Chat'] }]);

describe('unresolvedReason / findUnresolvedTools (what save-time checks and previews report)', () => {
  it('says why a name, a label or a pattern matches no tool, and null when it matches one', () => {
    expect(unresolvedReason('doc_read', CATALOG)).toBeNull();
    expect(unresolvedReason('@chat', CATALOG)).toBeNull();
    expect(unresolvedReason('doc_*', CATALOG)).toBeNull();
    expect(unresolvedReason('shell_exec', CATALOG)).toBe("no tool of this deployment is called 'shell_exec'; it resolves only when a connected client registers it");
    expect(unresolvedReason('@Web', CATALOG)).toBe('label @web matches no tool; it resolves only when a connected client registers a tool with that label');
    expect(unresolvedReason('client_*', CATALOG)).toBe("no tool name starts with 'client_'; the pattern resolves only when a connected client registers such a tool");
    expect(unresolvedReason('*', [])).toBe('the pattern * matches no tool: there are none');
  });

  it('leaves malformed entries to the parsers (null), and takes a catalog or a descriptor list', () => {
    expect(unresolvedReason('doc write', CATALOG)).toBeNull();
    expect(unresolvedReason('shell_exec', [{ name: 'shell_exec', labels: [] }])).toBeNull();
  });

  it('lists the unresolved entries of several lists with their field, each entry once per field', () => {
    expect(findUnresolvedTools({ allowedToolsAdd: ['doc_read', ' shell_exec', 'shell_exec'], tools: ['shell_exec'] }, CATALOG)).toEqual([
      { entry: 'shell_exec', field: 'allowedToolsAdd', reason: expect.stringContaining("'shell_exec'") },
      { entry: 'shell_exec', field: 'tools', reason: expect.stringContaining("'shell_exec'") },
    ]);
  });
});
