import { describe, expect, it } from 'vitest';
import { parseToolDocument } from './parse-tool-document';
import { toolDocumentName } from './tool-document';

const parse = (content: string, name = 'weather', builtins: string[] = []) =>
  parseToolDocument({ name, path: `_vance/tools/${name}.yaml`, content }, new Set(builtins));

describe('tool documents', () => {
  it('parses an HTTP tool into the typed model: labels lower-cased, settings in headers, defaults', () => {
    const { tool, diagnostics } = parse([
      'description: Current weather', 'labels: ["@Web", weather]', 'deferred: yes',
      'parameters:', '  type: object', '  properties:', '    city: { type: string }', '  required: [city]',
      'http:', '  method: post', '  url: "https://api.example/v1/{city}"', '  headers:', '    Authorization: "Bearer {setting:wx.apiKey}"',
    ].join('\n'));
    expect(diagnostics).toEqual([]);
    expect(tool).toMatchObject({ name: 'weather', labels: ['web', 'weather'], deferred: true });
    expect(tool!.implementation).toMatchObject({
      kind: 'HTTP', method: 'POST', body: true, timeoutMs: 10_000, url: { origin: 'https://api.example', placeholders: ['city'] },
      headers: [{ name: 'Authorization', parts: [{ text: 'Bearer ' }, { setting: 'wx.apiKey' }] }],
    });
  });

  it('locates its errors: line, column and field', () => {
    const { tool, diagnostics } = parse(['description: x', 'parameters:', '  type: array', 'http:', '  url: "https://api.example/{nope}"', '  timeoutMs: 999999'].join('\n'));
    expect(tool).toBeNull();
    expect(diagnostics).toEqual(expect.arrayContaining([
      expect.objectContaining({ severity: 'ERROR', field: 'parameters.type', line: 3 }),
      expect.objectContaining({ severity: 'ERROR', field: 'http.url', line: 5, message: expect.stringContaining('{nope}') }),
      expect.objectContaining({ severity: 'ERROR', field: 'http.timeoutMs', line: 6 }),
    ]));
    expect(parse('description: [unclosed\n').diagnostics[0]).toMatchObject({ severity: 'ERROR', line: 1, message: expect.stringContaining('YAML syntax') });
  });

  it('refuses two implementations, none, settings in the URL, a name that differs from the file, and a built-in name', () => {
    const both = parse('description: x\nhttp:\n  url: "https://a.example/"\nscript:\n  source: "1"\n');
    expect(both.diagnostics).toContainEqual(expect.objectContaining({ field: 'script', message: expect.stringContaining('not both') }));
    expect(parse('description: x\n').diagnostics).toContainEqual(expect.objectContaining({ message: expect.stringContaining('needs an implementation') }));
    expect(parse('description: x\nhttp:\n  url: "https://a.example/?k={setting:wx.apiKey}"\n').diagnostics).toContainEqual(expect.objectContaining({ field: 'http.url', line: 3 }));
    expect(parse('name: other\ndescription: x\nscript:\n  source: "1"\n').diagnostics).toContainEqual(expect.objectContaining({ field: 'name', line: 1 }));
    expect(parse('description: x\nscript:\n  source: "1"\n', 'respond', ['respond']).diagnostics).toContainEqual(expect.objectContaining({ message: expect.stringContaining('built-in tool') }));
  });

  it('names tool documents by file and leaves packs and nested files alone', () => {
    expect(toolDocumentName('_vance/tools/weather.yaml')).toBe('weather');
    expect(toolDocumentName('_vance/tools/web.mcp.yaml')).toBeNull();
    expect(toolDocumentName('_vance/tools/sub/x.yaml')).toBeNull();
  });
});
