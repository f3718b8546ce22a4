/**
 * The dashboard end to end (issue 7): a real Vance (harness, turns on, offline provider) serving the
 * built admin/dist at /admin, driven in Debian's Chromium by playwright-core (never a browser
 * download). Covers log in, a skill edit whose diagnostic lands on its line, overriding a bundled
 * skill into the project (and deleting it again), the recipe whitelist (lockdown and back), a live
 * turn stream after sending a message, a process's activation (verdicts, token split) and
 * regenerating its last turn, the trigger bench, settings (provider keys; users and members) and
 * logout on a 401.
 * Screenshots of each main page go to test/e2e/screenshots/ (git-ignored).
 * Skipped only when /usr/bin/chromium is missing (CI installs it: .ci/run).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { testDatabases } from '../support/databases';
import { ADMIN_TOKEN, startTestVance, type TestVance } from '../graphql/harness';
import type { Database } from '../../api/src/persistence';
import { ensureAdminBuilt } from './build-admin';
import { CHROMIUM, HAS_CHROMIUM, SHOTS, WAIT, launchChromium } from './chromium';

const PROJECT = 'web';
const SKILL_PATH = '_vance/skills/e2e-notes/SKILL.md';
const VALID_SKILL = ['---', 'title: E2E notes', 'description: Take notes in the e2e test', 'version: "1.0.0"', 'lifecycle: sticky', '---', 'Write short notes.', ''].join('\n');
const BROKEN_SKILL = ['---', 'title: E2E notes', 'description: Take notes in the e2e test', 'version: "1.0.0"', 'lifecycle: forever', '---', 'Write short notes.', ''].join('\n');

if (!HAS_CHROMIUM) console.warn(`SKIPPED dashboard e2e: ${CHROMIUM} is missing (apt-get install -y --no-install-recommends chromium)`);

// Generous timeouts: the machines are shared (2 cores) and a loaded one renders slowly. Load: every
// wait has the page's WAIT (expect.poll's own default is 1 s, which a busy machine outlasted), and
// the tests' own timeout leaves room for several of them.
describe.skipIf(!HAS_CHROMIUM)(HAS_CHROMIUM ? 'dashboard in Chromium' : `dashboard in Chromium — SKIPPED: ${CHROMIUM} is missing`, { timeout: 240_000 }, () => {
  let db: Database;
  let s: TestVance;
  let browser: Browser;
  let page: Page;
  let base: string;
  const pageErrors: string[] = [];

  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const go = async (route: string) => {
    await page.goto(`${base}/admin/#${route}`);
  };
  const recipe = async (name: string) =>
    (await s.gql(`query($n: String!, $p: String) { recipe(name: $n, project: $p) { source allowedSkills defaultActiveSkills } }`, { n: name, p: PROJECT })).data!.recipe;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ensureAdminBuilt();
    db = await testDatabases()[0]!.open();
    s = await startTestVance(db, {}, { runTurns: true });
    base = s.url.replace(/\/graphql$/, '');
    expect((await s.gql('mutation { createProject(name: "web") { name } }')).errors).toBeUndefined();
    expect((await s.gql('mutation($p: String!, $c: String!) { putDocument(layer: PROJECT, project: "web", path: $p, content: $c) { version } }', { p: SKILL_PATH, c: VALID_SKILL })).errors).toBeUndefined();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(WAIT);
    page.on('pageerror', (err) => pageErrors.push(err.message));
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
    await db?.close();
  });

  it('serves the dashboard at /admin with an SPA fallback and the right content types', async () => {
    const index = await fetch(`${base}/admin/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await index.text();
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const js = await fetch(`${base}${script}`);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await fetch(`${base}/admin/some/client/route`)).headers.get('content-type')).toMatch(/^text\/html/);
    expect((await fetch(`${base}/admin/..%2f..%2fpackage.json`)).status).toBe(404);
  });

  it('logs in with a token and picks a project', async () => {
    await page.goto(`${base}/admin/`);
    await page.getByLabel('API token').fill('wrong-token-0123456789');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('This token is not valid').waitFor();
    await shot('login');
    await page.getByLabel('API token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('menuitem', { name: 'Layers' }).waitFor();
    await expect.poll(() => page.evaluate('localStorage.getItem("vance.project")'), { timeout: WAIT }).toBe(PROJECT);
  });

  it('lists the layers, shows a save error at its line, then saves and keeps history', async () => {
    await go('/documents?layer=RESOURCE');
    await page.getByRole('link', { name: '_vance/skills/typescript-style/SKILL.md' }).waitFor();
    await go('/documents?layer=PROJECT');
    await page.getByRole('link', { name: SKILL_PATH }).click();
    await page.locator('.cm-content').getByText('lifecycle: sticky').waitFor();
    await shot('layers');
    await page.locator('.cm-content').fill(BROKEN_SKILL);
    await page.getByTestId('save-document').click();
    const marked = page.locator('.cm-line').filter({ has: page.locator('.cm-lintRange-error') });
    await expect.poll(() => marked.first().textContent(), { timeout: WAIT }).toBe('lifecycle: forever');
    await expect.poll(() => page.getByTestId('diagnostics').textContent(), { timeout: WAIT }).toMatch(/^line 5\b/);
    await page.locator('.cm-gutter-lint .cm-lint-marker-error').first().waitFor();
    await shot('skill-diagnostic');
    // Nothing was written; fixing the line saves version 2, and history can restore version 1.
    await page.locator('.cm-content').fill(VALID_SKILL.replace('Write short notes.', 'Write shorter notes.'));
    await page.getByTestId('save-document').click();
    await page.getByText('version 2', { exact: true }).waitFor();
    await page.getByTestId('restore-1').click();
    await page.getByText('version 3', { exact: true }).waitFor();
    const doc = await s.gql('{ document(layer: PROJECT, project: "web", path: "_vance/skills/e2e-notes/SKILL.md") { content version } }');
    expect(doc.data!.document).toEqual({ content: VALID_SKILL, version: 3 });
  });

  it('validates a draft against the files beside it and previews a template with a context of the author\'s choosing', async () => {
    await go('/documents?layer=PROJECT');
    await page.getByRole('link', { name: SKILL_PATH }).click();
    await page.locator('.cm-content').getByText('lifecycle: sticky').waitFor();
    // Validate: the reference file is missing among the project's files; nothing is saved.
    const withReference = VALID_SKILL.replace('lifecycle: sticky', 'lifecycle: sticky\nreferenceDocs:\n  - title: Notes guide\n    file: references/notes.md');
    await page.locator('.cm-content').fill(withReference);
    await page.getByTestId('validate-document').click();
    await expect.poll(() => page.getByTestId('diagnostics').textContent(), { timeout: WAIT }).toMatch(/line 8:\d+ warning.*'references\/notes\.md' does not exist/);
    expect((await s.gql('{ document(layer: PROJECT, project: "web", path: "_vance/skills/e2e-notes/SKILL.md") { content } }')).data!.document.content).toBe(VALID_SKILL);

    // Preview: the panel starts from the skill body; a tier: small branch renders with the typed context.
    const preview = page.getByTestId('template-preview');
    await expect.poll(() => preview.getByTestId('preview-source').inputValue(), { timeout: WAIT }).toBe('Write short notes.\n');
    await preview.getByTestId('preview-source').fill("{% if tier == 'small' %}Short{% else %}Long{% endif %} notes in {{ mode }} mode.");
    await preview.getByTestId('preview-context').fill('{ "tier": "small", "mode": "PLANNING" }');
    await preview.getByTestId('preview-render').click();
    await expect.poll(() => preview.getByTestId('preview-output').textContent(), { timeout: WAIT }).toBe('Short notes in PLANNING mode.');
    await shot('template-preview');
    await preview.getByTestId('preview-source').fill('Notes.\n{% if tier %}never closed');
    await preview.getByTestId('preview-render').click();
    await expect.poll(() => preview.getByTestId('preview-error').textContent(), { timeout: WAIT }).toMatch(/^SYNTAX at line 2:\d+ of the template/);
  });

  it('overrides a bundled skill into the project, and deleting the copy shows the bundled one again', async () => {
    await go('/skills');
    await page.getByText('typescript-style').first().waitFor();
    await shot('skills');
    await page.getByText('typescript-style').first().click();
    await page.getByTestId('override-PROJECT').click();
    await page.getByTestId('effective-source').filter({ hasText: 'Effective copy: PROJECT (this one)' }).waitFor();
    const skill = await s.gql('{ skill(name: "typescript-style", project: "web") { source shadowed } }');
    expect(skill.data!.skill).toEqual({ source: 'PROJECT', shadowed: ['RESOURCE'] });
    await shot('skill-override');
    await page.getByTestId('delete-document').click();
    await page.getByTestId('effective-source').filter({ hasText: 'Effective copy: RESOURCE' }).waitFor();
    expect((await s.gql('{ skill(name: "typescript-style", project: "web") { source } }')).data!.skill.source).toBe('RESOURCE');
  });

  it('edits a recipe whitelist: lockdown, a whitelist with a default skill, and back to no restriction', async () => {
    await go('/recipes');
    await page.getByTestId('picker-preview').getByText('Default', { exact: true }).waitFor();
    await shot('recipes');
    await go('/recipes/analyze');
    await page.getByTestId('whitelist-editor').waitFor();
    await page.getByTestId('mode-lockdown').click();
    await page.getByTestId('save-whitelist').click();
    await page.getByTestId('whitelist-current').filter({ hasText: 'now: lockdown' }).waitFor();
    expect(await recipe('analyze')).toEqual({ source: 'PROJECT', allowedSkills: [], defaultActiveSkills: [] });

    await page.getByTestId('mode-list').click();
    await page.getByTestId('allow-code-guard').locator('input').check();
    await page.getByTestId('default-code-guard').locator('input').check();
    // defaultActiveSkills ⊆ allowedSkills while editing: disallowing drops the default and disables it.
    await page.getByTestId('allow-code-guard').locator('input').uncheck();
    expect(await page.getByTestId('default-code-guard').locator('input').isChecked()).toBe(false);
    expect(await page.getByTestId('default-code-guard').locator('input').isDisabled()).toBe(true);
    await page.getByTestId('allow-code-guard').locator('input').check();
    await page.getByTestId('default-code-guard').locator('input').check();
    await page.getByTestId('save-whitelist').click();
    await page.getByTestId('whitelist-current').filter({ hasText: 'allowed code-guard · default code-guard' }).waitFor();
    expect(await recipe('analyze')).toEqual({ source: 'PROJECT', allowedSkills: ['code-guard'], defaultActiveSkills: ['code-guard'] });
    await shot('recipe-whitelist');

    await page.getByTestId('mode-none').click();
    await page.getByTestId('save-whitelist').click();
    await page.getByTestId('whitelist-current').filter({ hasText: 'now: no restriction' }).waitFor();
    expect((await recipe('analyze')).allowedSkills).toBeNull();
    // Written structurally: the recipe's comments survived every save.
    const saved = await s.gql('{ document(layer: PROJECT, project: "web", path: "_vance/recipes/analyze.yaml") { content } }');
    expect(saved.data!.document.content).toContain('# analyze — multi-step analysis');
    expect(saved.data!.document.content).toContain('defaultActiveSkills:');

    await page.getByTestId('resolve-run').click();
    await page.getByTestId('resolve-preview').getByText('Params', { exact: true }).waitFor();
  });

  it('spawns a process, sends a message, watches the turn stream live, sees the activation and regenerates the turn', async () => {
    await go('/processes');
    await page.getByTestId('spawn-process').click();
    await page.getByTestId('turn-stream').waitFor();
    await page.getByTestId('stream-status').filter({ hasText: 'live' }).waitFor();
    // Nothing to regenerate yet: the API's NOT_FOUND shows as a notification.
    await page.getByTestId('regenerate-turn').click();
    await page.getByText(/Turn 'last turn of .*' not found/).waitFor();
    await page.getByTestId('message-input').fill('hello dashboard');
    await page.getByTestId('send-message').click();
    await page.getByTestId('stream-text').filter({ hasText: 'You said: hello dashboard' }).waitFor({ timeout: WAIT });
    await page.getByTestId('stream-steps').filter({ hasText: 'TurnFinished' }).waitFor({ timeout: WAIT });
    await page.getByTestId('history').getByText('hello dashboard').first().waitFor();
    await shot('process-stream');

    // Activation (issue 8): the next turn's verdicts and the token split, read from composeTurnPreview.
    await page.getByTestId('activation-verdicts').locator('tr[data-skill="typescript-style"]').filter({ hasText: 'off' }).waitFor();
    await page.getByTestId('token-split').filter({ hasText: /system [\d,]+ .* of [\d,]+ tokens/ }).waitFor();
    await page.getByTestId('open-skills').filter({ hasText: 'none' }).waitFor();
    await page.getByTestId('guards').getByText('No guards.').waitFor();
    // Regenerate: the turn is taken back (REGENERATED) and its input runs again as a new turn.
    await page.getByTestId('regenerate-turn').click();
    await expect.poll(() => page.getByTestId('stream-steps').locator('[data-type="TurnFinished"]').count(), { timeout: WAIT }).toBe(2);
    await page.getByTestId('history').locator('[data-testid="turn-row"][data-status="REGENERATED"]').waitFor();
    await page.getByTestId('history').locator('[data-testid="turn-row"][data-status="FINISHED"]').waitFor();
    await page.getByTestId('stream-regenerated').waitFor();
    await page.getByTestId('stream-steps').locator('[data-type="SkillVerdicts"]').filter({ hasText: /^SkillVerdicts: \d+ of \d+ on/ }).first().waitFor();
    await shot('process-activation');
    await go('/processes');
    await page.getByTestId('active-skills').first().waitFor();
    await shot('processes');
  });

  // Issue 16: a process's title and goal (a spawn skill's worker's, or given at spawn) on its page.
  it("shows a process's title and goal on its page", async () => {
    const spawned = await s.gql('mutation { spawnProcess(input: { project: "web", name: "titled", title: "Parser audit", goal: "Audit the parser." }) { id } }');
    expect(spawned.errors).toBeUndefined();
    await go(`/processes/${encodeURIComponent(spawned.data!.spawnProcess.id)}/show`);
    await page.getByTestId('process-title').filter({ hasText: 'Parser audit' }).waitFor();
    await page.getByTestId('process-goal').filter({ hasText: 'Goal: Audit the parser.' }).waitFor();
  });

  it('runs the trigger bench: the bundled typescript-style fires on a message about tsconfig and TypeScript', async () => {
    const message = 'please fix my tsconfig for typescript';
    // The page shows what the API answers; check that answer first so a page failure is the page's.
    const api = await s.gql('query($m: [String!]!) { skillTriggerTest(project: "web", messages: $m) { skill on reason when source } }', { m: [message] });
    expect(api.errors).toBeUndefined();
    expect(api.data!.skillTriggerTest).toContainEqual({ skill: 'typescript-style', on: true, reason: 'Mentioned: typescript, tsconfig.', when: null, source: 'RESOURCE' });
    await go('/trigger-bench');
    await page.getByTestId('bench-messages').fill(message);
    await page.getByTestId('bench-run').click();
    await page.locator('[data-testid="verdicts"] tr[data-on="true"]').filter({ hasText: 'typescript-style' }).filter({ hasText: 'Mentioned: typescript, tsconfig.' }).waitFor();
    await shot('trigger-bench');
  });

  // Issue 20: the bench's evals tab — save the message under test as a case, run, see the failure.
  it('saves the conversation as an eval case and shows the failing case in the evals tab', async () => {
    await go('/trigger-bench');
    await page.getByTestId('bench-messages').fill('my tsconfig is fine, thanks');
    await page.getByTestId('bench-run').click();
    await page.locator('[data-testid="verdicts"] tr[data-on="true"]').filter({ hasText: 'typescript-style' }).waitFor();
    await page.getByTestId('eval-skill').selectOption('typescript-style');
    await page.getByTestId('eval-fires').selectOption('false');
    await page.getByTestId('eval-save').click();
    // The project's copy starts from the bundled file: its cases pass, the new one fails.
    await page.getByTestId('eval-failed').filter({ hasText: '1 failed' }).waitFor();
    await page.locator('[data-testid="eval-cases"] tr[data-passed="false"]').filter({ hasText: 'my tsconfig is fine, thanks' }).filter({ hasText: 'Expected not to fire; it did.' }).waitFor();
    await shot('trigger-bench-evals');
    const stored = await s.gql('query { document(layer: PROJECT, project: "web", path: "_vance/skills/typescript-style/evals.yaml") { content } }');
    expect(stored.data!.document.content).toContain('message: my tsconfig is fine, thanks');
    // Run again from the tab, then remove the project's copy so later tests see the bundled layer.
    await page.getByTestId('tab-evals').click();
    await page.getByTestId('eval-run').click();
    await page.getByTestId('eval-failed').filter({ hasText: '1 failed' }).waitFor();
    expect((await s.gql('mutation { deleteDocument(layer: PROJECT, project: "web", path: "_vance/skills/typescript-style/evals.yaml") }')).errors).toBeUndefined();
  });

  it('settings: provider keys are write-only and shown masked', async () => {
    await go('/settings');
    await page.getByTestId('provider-key').fill('sk-e2e-secret-value');
    await page.getByTestId('save-provider-key').click();
    await page.locator('[data-key="ai.openai.apiKey"]').filter({ hasText: '••••••••' }).waitFor();
    expect(await page.content()).not.toContain('sk-e2e-secret-value');
    await shot('settings');
  });

  it('settings: lists the users (admin among them) and the members of the current project, and refreshes both after a create', async () => {
    await go('/settings');
    await page.getByRole('tab', { name: 'Users, projects, members' }).click();
    await page.getByTestId('users-table').locator('tr[data-login="admin"]').filter({ hasText: 'SYSTEM_ADMIN' }).waitFor();
    await page.getByTestId('members-table').locator('tr[data-login="admin"]').filter({ hasText: 'ADMIN' }).waitFor();
    // Both lists reload after a create.
    await page.getByLabel('Login').first().fill('e2e-user');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByTestId('users-table').locator('tr[data-login="e2e-user"]').filter({ hasText: 'MEMBER' }).waitFor();
    await page.getByLabel('Login').nth(1).fill('e2e-user');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.getByTestId('members-table').locator('tr[data-login="e2e-user"]').filter({ hasText: 'MEMBER' }).waitFor();
    await shot('settings-people');
  });

  it('logs out when the API answers UNAUTHENTICATED', async () => {
    await page.evaluate('localStorage.setItem("vance.token", "revoked-token-0123456789")');
    await go('/skills');
    await page.getByLabel('API token').waitFor();
    expect(await page.evaluate('localStorage.getItem("vance.token")')).toBeNull();
    // React reports a render it recovered from (react-admin's redirect to the login page) as a page error; anything else fails.
    expect(pageErrors.filter((m) => !m.startsWith('There was an error during concurrent rendering but React was able to recover'))).toEqual([]);
  });
});
