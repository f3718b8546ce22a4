import { describe, expect, it } from 'vitest';
import { expandUrlTemplate, parseUrlTemplate, type UrlTemplate } from './url-template';

const parsed = (text: string) => parseUrlTemplate(text) as UrlTemplate;

describe('URL templates of HTTP tools', () => {
  it('refuses a placeholder, user info or a missing host before the path', () => {
    for (const text of ['https://{host}/x', 'https://api.{tld}/x', 'https://user:pw@api.example/', 'ftp://api.example/', '{base}/x', 'https:///x']) {
      expect(parseUrlTemplate(text), text).toHaveProperty('problem');
    }
  });

  it('encodes each argument as one component: no new segment, query parameter, fragment or host', () => {
    const url = expandUrlTemplate(parsed('https://api.example/v1/{city}?units={units}'), { city: '../admin/x?y=1#z', units: 'a&b=c' });
    expect(url.origin).toBe('https://api.example');
    expect(url.pathname).toBe('/v1/..%2Fadmin%2Fx%3Fy%3D1%23z');
    expect([...url.searchParams.entries()]).toEqual([['units', 'a&b=c']]);
    expect(url.hash).toBe('');
    expect(parseUrlTemplate('https://api.example{path}')).toHaveProperty('problem');
    expect(expandUrlTemplate(parsed('https://api.example/{path}'), { path: '/@evil.example/' }).origin).toBe('https://api.example');
  });

  it('lists its placeholders and leaves absent arguments empty', () => {
    const template = parsed('http://127.0.0.1:8080/a/{x}/{y}/{x}');
    expect(template.placeholders).toEqual(['x', 'y']);
    expect(template.origin).toBe('http://127.0.0.1:8080');
    expect(expandUrlTemplate(template, { x: 1 }).pathname).toBe('/a/1//1');
  });
});
