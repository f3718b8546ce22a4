/**
 * Issue 17 points 6 and 7 in Debian's Chromium (playwright-core, no browser download):
 * - the load: the first page fetches a fraction of the JavaScript, compressed; the test PRINTS the
 *   total JS, the initial JS (raw and as transferred) and the first meaningful paint (login form
 *   visible; the first list with a stored token). No timing assertion: only structural facts.
 *   With VANCE_BASELINE_ADMIN_DIST (an older admin/dist) the same figures are printed for it.
 * - a process's activation log: a trigger-activated skill, a /skill activation, a refused one and a
 *   guard, each with its origin and verdict; the filters; the skill link.
 * - 420 px: no page-wide horizontal overflow on the main pages, the app bar whole; a toast from the
 *   previous page does not stay after navigating.
 * Screenshots go to test/e2e/screenshots/ (git-ignored).
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { testDatabases } from '../support/databases';
import { ADMIN_TOKEN, eventually, startTestVance, type TestVance } from '../graphql/harness';
import type { Database } from '../../api/src/persistence';
import { serveAdmin } from '../../api/src/graphql/admin-static';
import { ADMIN_DIR, ensureAdminBuilt } from './build-admin';
import { CHROMIUM, HAS_CHROMIUM, SHOTS, WAIT, launchChromium } from './chromium';

const PROJECT = 'web';
const skill = (name: string, front: string[]) =>
  ['---', `title: ${name}`, `description: Skill ${name}`, 'version: "1.0.0"', ...front, '---', `Body of ${name}.`, ''].join('\n');
const DOCS: Record<string, string> = {
  '_vance/skills/deployer/SKILL.md': skill('deployer', ['triggers:', '  - type: KEYWORDS', '    keywords: [deploy]', '    minMatch: 1']),
  '_vance/skills/notes/SKILL.md': skill('notes', []),
  '_vance/recipes/guarded-web.yaml': [
    'description: A worker with a stop guard', 'engine: ford', 'params:', '  validation: false',
    'guard:', '  - scriptBody: |', "      vance.log('info', 'checked at ' + vance.guard.point);", '    trigger: stop',
  ].join('\n'),
};

if (!HAS_CHROMIUM) console.warn(`SKIPPED dashboard log/load e2e: ${CHROMIUM} is missing`);

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** What the browser loaded for a page: JS raw (decoded) and as transferred (encoded body), and two paint times. */
interface LoadFigures { jsFiles: number; jsNames: string[]; jsRaw: number; jsEncoded: number; firstContentfulPaint: number | null; meaningful: number }

/** Records, in the page, when `selector` first appears (ms since navigation start). */
const markWhenVisible = (selector: string) => `(() => {
  const mark = () => { if (!window.__meaningful && document.querySelector(${JSON.stringify(selector)})) window.__meaningful = performance.now(); };
  new MutationObserver(mark).observe(document, { childList: true, subtree: true });
})();`;

async function measureLoad(context: BrowserContext, url: string, selector: string): Promise<LoadFigures> {
  const page = await context.newPage();
  await page.addInitScript(markWhenVisible(selector));
  await page.goto(url);
  await page.locator(selector).first().waitFor({ timeout: WAIT });
  // Runs in the page (a string: the test's types have no DOM).
  const figures = await page.evaluate(`(() => {
    const js = performance.getEntriesByType('resource').filter((r) => /\\.m?js(\\?|$)/.test(r.name));
    const fcp = performance.getEntriesByType('paint').find((p) => p.name === 'first-contentful-paint');
    return {
      jsFiles: js.length,
      jsNames: js.map((r) => r.name.split('/').pop()),
      jsRaw: js.reduce((s, r) => s + r.decodedBodySize, 0),
      jsEncoded: js.reduce((s, r) => s + r.encodedBodySize, 0),
      firstContentfulPaint: fcp ? fcp.startTime : null,
      meaningful: window.__meaningful,
    };
  })()`) as LoadFigures;
  await page.close();
  return figures;
}

function distJs(dist: string): { files: number; raw: number; br: number } {
  const dir = path.join(dist, 'assets');
  const js = readdirSync(dir).filter((f) => f.endsWith('.js'));
  const size = (f: string) => (existsSync(path.join(dir, f)) ? statSync(path.join(dir, f)).size : 0);
  return { files: js.length, raw: js.reduce((s, f) => s + size(f), 0), br: js.reduce((s, f) => s + (size(`${f}.br`) || size(f)), 0) };
}

describe.skipIf(!HAS_CHROMIUM)('activation log, load and layout in Chromium', { timeout: 240_000 }, () => {
  let db: Database;
  let s: TestVance;
  let browser: Browser;
  let page: Page;
  let base: string;
  let processId: string;
  const pageErrors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const go = (route: string) => page.goto(`${base}/admin/#${route}`);
  const turnLog = async () => (await s.gql(`query($id: ID!) { turnEventLog(processId: $id, limit: 1000) { type } }`, { id: processId })).data!.turnEventLog as { type: string }[];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureAdminBuilt();
    db = await testDatabases()[0]!.open();
    s = await startTestVance(db, {}, { runTurns: true });
    base = s.url.replace(/\/graphql$/, '');
    expect((await s.gql(`mutation { createProject(name: "${PROJECT}") { name } }`)).errors).toBeUndefined();
    for (const [p, c] of Object.entries(DOCS)) {
      expect((await s.gql('mutation($p: String!, $c: String!) { putDocument(layer: PROJECT, project: "web", path: $p, content: $c) { version } }', { p, c })).errors).toBeUndefined();
    }
    processId = (await s.gql(`mutation { spawnProcess(input: { project: "web", recipe: "guarded-web", name: "logged" }) { id } }`)).data!.spawnProcess.id;
    const command = `mutation($id: ID!, $line: String!) { skillCommand(processId: $id, line: $line) { kind } }`;
    expect((await s.gql(command, { id: processId, line: '/skill notes' })).errors).toBeUndefined();
    // Refused (NOT_FOUND), and recorded as a SKILL_REFUSED event.
    expect((await s.gql(command, { id: processId, line: '/skill no-such-skill' })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await s.gql(`mutation($id: ID!) { sendMessage(processId: $id, text: "please deploy the site") { id } }`, { id: processId })).errors).toBeUndefined();
    await eventually(async () => (await turnLog()).some((e) => e.type === 'TurnFinished'), 50);
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await db?.close();
  });

  it('loads a fraction of the JavaScript first, compressed, and prints the figures', async () => {
    const total = distJs(path.join(ADMIN_DIR, 'dist'));
    const fresh = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const login = await measureLoad(fresh, `${base}/admin/`, 'input[name="token"]');
    await fresh.close();
    const stored = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await stored.addInitScript(`localStorage.setItem('vance.token', ${JSON.stringify(ADMIN_TOKEN)}); localStorage.setItem('vance.project', '${PROJECT}');`);
    const list = await measureLoad(stored, `${base}/admin/#/skills`, 'table tbody tr');
    await stored.close();
    const lines = [
      `dashboard JS total: ${total.files} files, ${kb(total.raw)} raw, ${kb(total.br)} brotli`,
      `login page: initial JS ${login.jsFiles} files, ${kb(login.jsRaw)} raw, ${kb(login.jsEncoded)} transferred; first contentful paint ${login.firstContentfulPaint?.toFixed(0)} ms, login form visible ${login.meaningful.toFixed(0)} ms`,
      `skills list (stored token): JS ${list.jsFiles} files, ${kb(list.jsRaw)} raw, ${kb(list.jsEncoded)} transferred; first list row visible ${list.meaningful.toFixed(0)} ms`,
    ];
    const baseline = process.env.VANCE_BASELINE_ADMIN_DIST;
    if (baseline && existsSync(path.join(baseline, 'index.html'))) {
      // The older build served the same way (it has no .br/.gz beside its files: served as is).
      const old: Server = createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://x');
        void serveAdmin(req, res, url.pathname, path.resolve(baseline)).then((done) => {
          if (done) return;
          // /graphql goes on to this test's Vance, so the old dashboard can show a list too.
          const upstream = new URL(s.url);
          req.pipe(httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          }).on('error', () => res.writeHead(502).end()));
        });
      });
      await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const oldBase = `http://127.0.0.1:${(old.address() as AddressInfo).port}/admin/`;
      const before = await measureLoad(ctx, oldBase, 'input[name="token"]');
      await ctx.close();
      const oldStored = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      await oldStored.addInitScript(`localStorage.setItem('vance.token', ${JSON.stringify(ADMIN_TOKEN)}); localStorage.setItem('vance.project', '${PROJECT}');`);
      const beforeList = await measureLoad(oldStored, `${oldBase}#/skills`, 'table tbody tr');
      await oldStored.close();
      await new Promise<void>((resolve) => old.close(() => resolve()));
      const oldTotal = distJs(baseline);
      lines.push(`BASELINE ${baseline}: JS total ${oldTotal.files} files, ${kb(oldTotal.raw)}; login page initial JS ${kb(before.jsRaw)} raw, ${kb(before.jsEncoded)} transferred; first contentful paint ${before.firstContentfulPaint?.toFixed(0)} ms, login form visible ${before.meaningful.toFixed(0)} ms; `
        + `skills list (stored token): ${kb(beforeList.jsRaw)} raw, ${kb(beforeList.jsEncoded)} transferred, first list row visible ${beforeList.meaningful.toFixed(0)} ms`);
    }
    console.log(lines.join('\n'));
    // Structural facts only: the first page loads none of the pages' own chunks (the editor above
    // all), well under the whole of the JavaScript, and compressed. (What react, react-admin and MUI
    // take is most of what is left: about half of the total, 47–54 % as the pages grew.)
    expect(total.files).toBeGreaterThan(5);
    const lazy = /^(CodeEditor|DocumentEdit|RecipeEdit|ProcessShow|ActivationLog|SettingsPage|SkillShow|TriggerBench)-/;
    expect(login.jsNames.filter((name) => lazy.test(name))).toEqual([]);
    expect(login.jsRaw).toBeLessThan(total.raw * 0.6);
    expect(login.jsEncoded).toBeLessThan(login.jsRaw * 0.5);
    expect(list.jsRaw).toBeLessThan(total.raw * 0.75);
  });

  it('logs in; a toast of the login page does not stay on the next page', async () => {
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(WAIT);
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${base}/admin/`);
    await page.getByLabel('API token').fill('wrong-token-0123456789');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('This token is not valid').waitFor();
    await page.getByLabel('API token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('menuitem', { name: 'Layers' }).waitFor();
    await page.getByText('This token is not valid').waitFor({ state: 'detached' , timeout: 1_000 });
    await expect.poll(() => page.evaluate('localStorage.getItem("vance.project")'), { timeout: WAIT }).toBe(PROJECT);
  });

  it('shows the activation log: each activation with its origin and verdict, filterable, linked to the skill', async () => {
    await go(`/processes/${encodeURIComponent(processId)}/show`);
    await page.getByTestId('activation-log-link').click();
    const log = page.getByTestId('activation-log');
    const row = (attrs: string) => log.locator(`tbody tr${attrs}`);
    await row('[data-kind="candidate"][data-skill="deployer"]').first().waitFor();
    // The trigger's activation: a candidate that fired, with the trigger's sentence.
    const trigger = row('[data-kind="candidate"][data-skill="deployer"][data-on="true"]').first();
    expect(await trigger.getAttribute('data-origin')).toBe('trigger');
    expect(await trigger.textContent()).toMatch(/Mentioned: deploy\./);
    // The user's /skill line, and the refusal with its reason.
    const explicit = row('[data-kind="activated"][data-skill="notes"]').first();
    expect(await explicit.getAttribute('data-origin')).toBe('user');
    expect(await explicit.textContent()).toMatch(/Explicit: \/skill notes\./);
    expect(await row('[data-kind="refused"][data-skill="no-such-skill"]').first().textContent()).toMatch(/NOT_FOUND|not|no skill/i);
    // The active skill is a candidate that is on too, its origin the user's line.
    expect(await row('[data-kind="candidate"][data-skill="notes"][data-on="true"]').first().getAttribute('data-origin')).toBe('user');
    // The guard that ran at the turn's stop.
    expect(await row('[data-kind="guard"]').first().textContent()).toMatch(/@ stop: passed/);
    expect(await row('[data-kind="turn"]').first().textContent()).toMatch(/Turn 1 started/);
    await shot('activation-log');

    await page.getByTestId('log-filter-kind').selectOption('refused');
    await expect.poll(() => row('').count(), { timeout: WAIT }).toBe(1);
    expect(await row('[data-kind="refused"]').count()).toBe(1);
    await page.getByTestId('log-filter-kind').selectOption('');
    await page.getByTestId('log-filter-skill').selectOption('deployer');
    await expect.poll(async () => (await row('').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-skill')))).every((sk) => sk === 'deployer'), { timeout: WAIT }).toBe(true);
    expect(await row('').count()).toBeGreaterThan(0);
    await shot('activation-log-filtered');
    await row('').first().getByRole('link', { name: 'deployer' }).click();
    await expect.poll(() => page.url(), { timeout: WAIT }).toContain('#/skills/deployer/show');
  });

  it('is usable at 420 px: no page-wide horizontal overflow, the app bar whole', async () => {
    await page.setViewportSize({ width: 420, height: 860 });
    const pages: [string, string, string][] = [
      ['/documents?layer=RESOURCE', 'table tbody tr', 'narrow-layers'],
      ['/skills', 'table tbody tr', 'narrow-skills'],
      ['/recipes', '[data-testid="picker-preview"]', 'narrow-recipes'],
      ['/processes', 'table tbody tr', 'narrow-processes'],
      [`/processes/${encodeURIComponent(processId)}/show`, '[data-testid="activation-log-link"]', 'narrow-process'],
      [`/processes/${encodeURIComponent(processId)}/log`, '[data-testid="activation-log"] tbody tr', 'narrow-activation-log'],
      ['/trigger-bench', 'main', 'narrow-trigger-bench'],
      ['/settings', 'main', 'narrow-settings'],
    ];
    const overflow: string[] = [];
    for (const [route, ready, name] of pages) {
      await go(route);
      await page.locator(ready).first().waitFor();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      const width = (await page.evaluate('document.scrollingElement.scrollWidth')) as number;
      const bar = await page.locator('header').first().boundingBox();
      const switcher = await page.getByTestId('project-switcher').boundingBox().catch(() => null);
      if (width > 420) overflow.push(`${route}: page ${width} px wide`);
      if (!bar || bar.x < 0 || bar.x + bar.width > 420) overflow.push(`${route}: app bar ${JSON.stringify(bar)}`);
      if (switcher && switcher.x + switcher.width > 420) overflow.push(`${route}: project switcher ends at ${switcher.x + switcher.width}`);
      await shot(name);
    }
    expect(overflow).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
