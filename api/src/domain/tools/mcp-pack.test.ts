import { describe, expect, it } from 'vitest';
import { mcpPackDocumentKind } from './mcp-pack-document-kind';
import { mcpToolLabels, parseMcpPack } from './mcp-pack';
import { mcpToolNames, TOOL_NAME } from './mcp-tool-names';

const PATH = '_vance/tools/github.mcp.yaml';

describe('parseMcpPack', () => {
  it('reads an HTTP pack with headers from settings, labels, timeouts, include/exclude and deferred', () => {
    const { pack, diagnostics } = parseMcpPack(PATH, [
      'description: GitHub',
      'url: https://mcp.example.com/mcp',
      'headers:',
      '  Authorization: { setting: mcp.github.token, prefix: "Bearer " }',
      '  X-Team: platform',
      'labels: [Code, web]',
      'timeoutMs: 10000',
      'include: [search, read]',
      'exclude: [delete]',
      'deferred: yes',
    ].join('\n'));
    expect(diagnostics).toEqual([]);
    expect(pack).toEqual({
      name: 'github', description: 'GitHub', labels: ['code', 'web'], timeoutMs: 10_000, connectTimeoutMs: 5_000,
      include: ['search', 'read'], exclude: ['delete'], deferred: true,
      server: {
        transport: 'http', url: 'https://mcp.example.com/mcp',
        headers: { Authorization: { kind: 'setting', setting: 'mcp.github.token', prefix: 'Bearer ' }, 'X-Team': { kind: 'literal', value: 'platform' } },
      },
    });
    expect(mcpToolLabels(pack!)).toEqual(['mcp', 'mcp:github', 'code', 'web']);
  });

  it('reads a stdio pack (the policy is the adapter\'s, per tenant)', () => {
    const { pack } = parseMcpPack('_vance/tools/local.mcp.yaml', 'command: npx\nargs: [-y, some-server, 3]\n');
    expect(pack?.server).toEqual({ transport: 'stdio', command: 'npx', args: ['-y', 'some-server', '3'] });
  });

  it('locates each error by path, line and field, and gives no pack', () => {
    const { pack, diagnostics } = parseMcpPack(PATH, 'url: ftp://x.org\ntimeoutMs: 900000\nheaders:\n  "bad header": x\nlabels: ["@web"]\n');
    expect(pack).toBeNull();
    expect(diagnostics.filter((d) => d.severity === 'ERROR').map((d) => [d.field, d.line, d.path])).toEqual(expect.arrayContaining([
      ['url', 1, PATH], ['timeoutMs', 2, PATH], ['headers.bad header', 4, PATH], ['labels[0]', 5, PATH],
    ]));
  });

  it('needs exactly one of url and command, and refuses credentials in the url', () => {
    expect(parseMcpPack(PATH, 'labels: [x]\n').diagnostics[0]?.message).toContain('needs a server');
    expect(parseMcpPack(PATH, 'url: http://a/\ncommand: x\n').diagnostics[0]).toMatchObject({ field: 'command', line: 2 });
    expect(parseMcpPack(PATH, 'url: http://user:pw@a/\n').diagnostics[0]).toMatchObject({ field: 'url' });
  });

  it('warns on an unknown field at its key; enabled: false gives no pack and no error', () => {
    const unknown = parseMcpPack(PATH, 'url: http://a/\nlabel: [x]\n');
    expect(unknown.pack).not.toBeNull();
    expect(unknown.diagnostics).toEqual([expect.objectContaining({ severity: 'WARNING', field: 'label', line: 2 })]);
    expect(parseMcpPack(PATH, 'url: http://a/\nenabled: off\n')).toMatchObject({ pack: null, enabled: false, diagnostics: [] });
  });

  it('refuses a pack name that cannot prefix a tool name', () => {
    const { diagnostics } = parseMcpPack('_vance/tools/Git.Hub.mcp.yaml', 'url: http://a/\n');
    expect(diagnostics[0]?.message).toContain("pack name 'Git.Hub'");
  });

  it('is the document kind the validator and vance lint use for *.mcp.yaml', () => {
    const kind = mcpPackDocumentKind();
    expect(kind.pattern.test('_vance/tools/web.mcp.yaml')).toBe(true);
    expect(kind.pattern.test('_vance/tools/web.yaml')).toBe(false);
    expect(kind.validate(PATH, kind.pattern.exec(PATH)!, 'url: 5\n')[0]).toMatchObject({ severity: 'ERROR', field: 'url' });
  });
});

describe('mcpToolNames', () => {
  it('prefixes with the pack and replaces characters providers refuse', () => {
    const names = mcpToolNames('gh', ['search', 'repo.read/v2', 'ok-name_1']);
    expect([...names]).toEqual([['ok-name_1', 'gh_ok-name_1'], ['repo.read/v2', 'gh_repo_read_v2'], ['search', 'gh_search']]);
  });

  it('tells apart names that become equal, the same way every time', () => {
    const a = mcpToolNames('gh', ['a.b', 'a/b', 'a_b']);
    const b = mcpToolNames('gh', ['a_b', 'a/b', 'a.b']);
    expect(a).toEqual(b);
    expect(new Set(a.values()).size).toBe(3);
    expect(a.get('a.b')).toBe('gh_a_b'); // code-point order: '.' < '/' < '_'
    for (const name of a.values()) expect(name).toMatch(TOOL_NAME);
  });

  it('cuts an over-long name to 64 characters with a hash of the original', () => {
    const long1 = `${'x'.repeat(80)}1`;
    const long2 = `${'x'.repeat(80)}2`;
    const names = mcpToolNames('pack', [long1, long2]);
    expect(names.get(long1)).toMatch(TOOL_NAME);
    expect(names.get(long1)!.length).toBe(64);
    expect(names.get(long1)).not.toBe(names.get(long2));
    expect(mcpToolNames('pack', [long1]).get(long1)).toBe(names.get(long1));
  });
});
