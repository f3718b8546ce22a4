/**
 * The dashboard's Tools page in Chromium (issue 19): the current project's tools with their source
 * and labels — built-ins, a tenant tool document, a project copy that shadows a tenant one — and the
 * tool documents that could not be offered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, openBrowserFixture, PROJECT, type BrowserFixture } from './browser-fixture';

const PUT = 'mutation($l: Layer!, $p: String, $path: String!, $c: String!, $f: Boolean) { putDocument(layer: $l, project: $p, path: $path, content: $c, force: $f) { version } }';
const tool = (description: string, labels: string) => `description: ${description}\nlabels: [${labels}]\nscript:\n  source: "1"\n`;

describe.skipIf(!HAS_CHROMIUM)('tools page in Chromium', { timeout: 240_000 }, () => {
  let f: BrowserFixture;
  beforeAll(async () => {
    f = await openBrowserFixture();
    await f.ok(PUT, { l: 'VANCE', path: '_vance/tools/forecast.yaml', c: tool('Tenant forecast', 'weather, web') });
    await f.ok(PUT, { l: 'VANCE', path: '_vance/tools/echo.yaml', c: tool('Tenant echo', 'text') });
    await f.ok(PUT, { l: 'PROJECT', p: PROJECT, path: '_vance/tools/echo.yaml', c: tool('Project echo', 'text, local') });
    await f.ok(PUT, { l: 'PROJECT', p: PROJECT, path: '_vance/tools/broken.yaml', c: 'description: no implementation\n', f: true });
  }, 300_000);
  afterAll(async () => { await f?.close(); });

  it('lists built-ins and tool documents with source and labels, and the documents that could not be offered', async () => {
    await f.go('/tools');
    const forecast = f.page.getByTestId('tool-forecast');
    await forecast.waitFor();
    expect(await forecast.innerText()).toContain('VANCE · _vance/tools/forecast.yaml');
    expect(await forecast.innerText()).toContain('weather');
    const echo = f.page.getByTestId('tool-echo');
    expect(await echo.innerText()).toContain('PROJECT · _vance/tools/echo.yaml');
    expect(await echo.innerText()).toContain('Project echo');
    expect(await echo.innerText()).toContain('local');
    expect(await f.page.getByTestId('tool-whoami').innerText()).toContain('built-in');
    expect(await f.page.getByTestId('tool-problem').innerText()).toContain('_vance/tools/broken.yaml');
    await f.shot('tools-page');
    expect(f.pageErrors).toEqual([]);
  });
});
