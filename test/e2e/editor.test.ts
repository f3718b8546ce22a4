/**
 * The document editor in Chromium (issue 17 point 5): leaving with unsaved edits asks first (and
 * without edits does not); a save refused for its diagnostics offers "Save anyway" (putDocument
 * force) to whoever may write the layer — the admin in PROJECT, a MEMBER in their USER layer — with
 * the diagnostics kept in view, and no such offer for other refusals; YAML errors are marked on the
 * line the server names (a recipe and a SKILL.md frontmatter); the template preview renders with a
 * chosen tier, model, mode, profile and params, also from the editor's unsaved text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialog, Page } from 'playwright-core';
import { HAS_CHROMIUM, openBrowserFixture, PROJECT, WAIT, type BrowserFixture } from './browser-fixture';

const SKILL_PATH = '_vance/skills/e2e-edit/SKILL.md';
const skill = (lifecycle: string, body = 'Write short notes.') => ['---', 'title: E2E edit', 'description: Edited in the e2e test', 'version: "1.0.0"', `lifecycle: ${lifecycle}`, '---', body, ''].join('\n');
const PUT = 'mutation($l: Layer!, $p: String!, $c: String!, $f: Boolean) { putDocument(layer: $l, project: "web", path: $p, content: $c, force: $f) { version } }';
const route = (layer: string, path: string) => `/documents/${encodeURIComponent(`${layer}:${path}`)}`;

describe.skipIf(!HAS_CHROMIUM)('document editor in Chromium', { timeout: 240_000 }, () => {
  let f: BrowserFixture;
  let page: Page;
  const dialogs: string[] = [];
  let answer: 'accept' | 'dismiss' = 'dismiss';
  beforeAll(async () => {
    f = await openBrowserFixture();
    page = f.page;
    page.on('dialog', (d: Dialog) => { dialogs.push(d.message()); void (answer === 'accept' ? d.accept() : d.dismiss()); });
    await f.ok(PUT, { l: 'PROJECT', p: SKILL_PATH, c: skill('sticky') });
  }, 300_000);
  afterAll(async () => { await f?.close(); });

  const openDoc = async (p: Page, layer: string, path: string, text: string) => {
    await p.goto(`${f.base}/admin/#${route(layer, path)}`);
    await p.locator('[data-testid="document-edit"][data-ready="true"]').waitFor();
    await p.locator('.cm-content').getByText(text).first().waitFor();
  };
  const version = async (layer: string, path: string, token?: string) =>
    (await f.ok('query($l: Layer!, $p: String!) { document(layer: $l, project: "web", path: $p) { version content } }', { l: layer, p: path }, token)).document;

  it('leaves without a prompt when nothing was edited', async () => {
    await openDoc(page, 'PROJECT', SKILL_PATH, 'lifecycle: sticky');
    await page.getByRole('menuitem', { name: 'Skills' }).click();
    await page.getByText('typescript-style').first().waitFor();
    expect(dialogs).toEqual([]);
  });

  it('asks before leaving with unsaved edits: cancel keeps them, confirm leaves', async () => {
    await openDoc(page, 'PROJECT', SKILL_PATH, 'lifecycle: sticky');
    await page.locator('.cm-content').fill(skill('sticky', 'Unsaved words.'));
    answer = 'dismiss';
    await page.getByRole('menuitem', { name: 'Skills' }).click();
    await expect.poll(() => dialogs.length, { timeout: WAIT }).toBe(1);
    expect(dialogs[0]).toMatch(/changes weren't saved/);
    await page.locator('.cm-content').getByText('Unsaved words.').waitFor();
    expect(page.url()).toContain(encodeURIComponent(`PROJECT:${SKILL_PATH}`));
    answer = 'accept';
    await page.getByRole('menuitem', { name: 'Skills' }).click();
    await page.getByText('typescript-style').first().waitFor();
    expect(dialogs).toHaveLength(2);
    expect((await version('PROJECT', SKILL_PATH)).content).toBe(skill('sticky'));
  });

  it('offers "Save anyway" for a save refused with diagnostics; the forced save keeps them in view', async () => {
    dialogs.length = 0;
    await openDoc(page, 'PROJECT', SKILL_PATH, 'lifecycle: sticky');
    await page.locator('.cm-content').fill(skill('forever'));
    await page.getByTestId('save-document').click();
    await page.getByTestId('save-refused').waitFor();
    await expect.poll(() => page.getByTestId('diagnostics').textContent(), { timeout: WAIT }).toMatch(/^line 5:12 error/);
    await f.shot('editor-save-refused');
    expect((await version('PROJECT', SKILL_PATH)).version).toBe(1);
    await page.getByTestId('save-anyway').click();
    await page.getByText('version 2', { exact: true }).waitFor();
    expect(await version('PROJECT', SKILL_PATH)).toEqual({ version: 2, content: skill('forever') });
    // Still shown after the forced save, on its line; the offer is gone (nothing is refused now).
    await expect.poll(() => page.getByTestId('diagnostics').textContent(), { timeout: WAIT }).toMatch(/^line 5:12 error/);
    await page.locator('.cm-line').filter({ has: page.locator('.cm-lintRange-error') }).filter({ hasText: 'lifecycle: forever' }).waitFor();
    expect(await page.getByTestId('save-anyway').count()).toBe(0);
    const status = await f.ok('{ skill(name: "e2e-edit", project: "web") { status } }');
    expect(status.skill.status).toBe('INVALID');
    // Saved: leaving asks nothing.
    await page.getByRole('menuitem', { name: 'Skills' }).click();
    await page.getByText('typescript-style').first().waitFor();
    expect(dialogs).toEqual([]);
  });

  it('offers no "Save anyway" for a refusal force cannot override (a stale version)', async () => {
    await openDoc(page, 'PROJECT', SKILL_PATH, 'lifecycle: forever');
    await f.ok(PUT, { l: 'PROJECT', p: SKILL_PATH, c: skill('sticky', 'Changed elsewhere.') });
    await page.locator('.cm-content').fill(skill('sticky', 'Mine.'));
    await page.getByTestId('save-document').click();
    // CONFLICT carries a diagnostic too (stale expectedVersion): the offer goes by the refusal's code, not by diagnostics.
    await page.getByText(/is at version 3, not 2; reload and retry/).first().waitFor();
    await page.getByTestId('diagnostics').filter({ hasText: 'stale expectedVersion' }).waitFor();
    expect(await page.getByTestId('save-anyway').count()).toBe(0);
    expect((await version('PROJECT', SKILL_PATH)).content).toContain('Changed elsewhere.');
    answer = 'accept';
  });

  it('a MEMBER may force in the layer they write (their USER layer)', async () => {
    const created = await f.ok('mutation { createUser(login: "e2e-member", role: MEMBER) { token } }');
    await f.ok(`mutation { addProjectMember(project: "${PROJECT}", login: "e2e-member", role: MEMBER) { role } }`);
    const member = await f.pageFor(created.createUser.token);
    await member.goto(`${f.base}/admin/#${route('USER', '_vance/skills/mine/SKILL.md')}`);
    await member.locator('[data-testid="document-edit"][data-ready="true"]').waitFor();
    await member.locator('.cm-content').fill(skill('forever'));
    await member.getByTestId('save-document').click();
    await member.getByTestId('save-anyway').click();
    await member.getByText('version 1', { exact: true }).waitFor();
    expect((await version('USER', '_vance/skills/mine/SKILL.md', created.createUser.token)).content).toBe(skill('forever'));
    await member.screenshot({ path: `${__dirname}/screenshots/editor-member-forced.png`, fullPage: true });
    await member.context().close();
  });

  it.each([
    ['a recipe', '_vance/recipes/e2e-broken.yaml', 'description: d\nengine: ford\ntags: [a\nlisted: true\n', 'tags: [a', 3],
    ['a SKILL.md frontmatter', '_vance/skills/e2e-yaml/SKILL.md', '---\ntitle: X\ndescription: d\ntags: [a, b\nversion: "1.0.0"\n---\nBody\n', 'tags: [a, b', 4],
  ])('marks a YAML syntax error in %s on the line the server names', async (_, path, content, text, line) => {
    await f.ok(PUT, { l: 'PROJECT', p: path, c: content, f: true });
    await openDoc(page, 'PROJECT', path, text);
    await expect.poll(() => page.getByTestId('diagnostics').textContent(), { timeout: WAIT }).toMatch(new RegExp(`^line ${line}:\\d+ error`));
    const marked = page.locator('.cm-line').filter({ has: page.locator('.cm-lintRange-error') });
    await expect.poll(() => marked.allTextContents(), { timeout: WAIT }).toEqual([text]);
    // The gutter marker sits on that line too (the line numbers' gutter says which).
    const top = async (locator: ReturnType<Page['locator']>) => (await locator.boundingBox())!.y;
    const marker = await top(page.locator('.cm-gutter-lint .cm-lint-marker-error').first());
    const lineNumber = await top(page.locator('.cm-lineNumbers .cm-gutterElement').filter({ hasText: new RegExp(`^${line}$`) }));
    expect(Math.abs(marker - lineNumber)).toBeLessThan(4);
  });

  it('previews a template with a chosen tier, model, mode, profile and params, also from the unsaved text', async () => {
    await openDoc(page, 'PROJECT', SKILL_PATH, 'Changed elsewhere.');
    const preview = page.getByTestId('template-preview');
    await page.locator('.cm-content').fill(skill('sticky', '{{ tier }}/{{ model }}/{{ mode }}/{{ profile }}/{{ params.maxIterations }}'));
    await preview.getByTestId('preview-from-editor').click();
    expect(await preview.getByTestId('preview-source').inputValue()).toBe('{{ tier }}/{{ model }}/{{ mode }}/{{ profile }}/{{ params.maxIterations }}\n');
    await preview.getByTestId('preview-context').fill('{ "tier": "large", "model": "e2e-model", "mode": "EXECUTING", "profile": "web", "params": { "maxIterations": 7 } }');
    await preview.getByTestId('preview-render').click();
    await expect.poll(() => preview.getByTestId('preview-output').textContent(), { timeout: WAIT }).toBe('large/e2e-model/EXECUTING/web/7\n');
    await f.shot('editor-preview-context');
  });
});
