/**
 * Issue 17 §1 in the browser: the dashboard tells the truth about what a role may do. A project
 * MEMBER is not offered the writes the API would refuse (override buttons, save/delete in the
 * PROJECT layer, settings, user and project creation); a refusal provoked anyway (permissions that
 * changed while the page was open) is an error toast and the user stays logged in; an ADMIN's
 * override works and its toast says so. Before the fix, the MEMBER saw "Copied … into the PROJECT
 * layer", then the login page, and nothing was written. Every toast the page shows is recorded
 * from the DOM (a MutationObserver), so a success toast that flashed by is caught too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN_TOKEN } from '../graphql/harness';
import { CHROMIUM, HAS_CHROMIUM, WAIT, createUser, logIn, startBrowserVance, type BrowserVance } from './dashboard-session-fixture';

if (!HAS_CHROMIUM) console.warn(`SKIPPED dashboard-roles e2e: ${CHROMIUM} is missing (apt-get install -y --no-install-recommends chromium)`);

const PROJECT = 'team';
const NOTE_PATH = 'notes/team.md';
const SKILL = 'typescript-style';
interface Toast { type: string; text: string }

/**
 * Records every react-admin notification (RaNotification-success / -error / -warning / -info) the
 * page shows, in window.__toasts. A string: the test project compiles without the DOM library.
 */
const RECORD_TOASTS = `
  window.__toasts = [];
  const seen = new WeakSet();
  const scan = (root) => {
    for (const el of [root, ...root.querySelectorAll('[class*="RaNotification-"]')]) {
      const type = /RaNotification-(success|error|warning|info)/.exec(String(el.className || ''))?.[1];
      if (!type || seen.has(el)) continue;
      seen.add(el);
      window.__toasts.push({ type, text: el.textContent || '' });
    }
  };
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) if (n instanceof Element) scan(n);
  }).observe(document, { childList: true, subtree: true });
`;

describe.skipIf(!HAS_CHROMIUM)(HAS_CHROMIUM ? 'dashboard roles in Chromium' : `dashboard roles — SKIPPED: ${CHROMIUM} is missing`, { timeout: 240_000 }, () => {
  let v: BrowserVance;
  let memberToken: string;
  let leadToken: string;
  const errors: string[] = [];

  const open = async (token: string): Promise<Page> => {
    const page = await v.newPage(errors);
    await page.addInitScript({ content: RECORD_TOASTS });
    await logIn(page, v.base, token);
    await page.evaluate(`localStorage.setItem("vance.project", "${PROJECT}")`);
    return page;
  };
  const toasts = (page: Page) => page.evaluate('window.__toasts') as Promise<Toast[]>;
  const skillSource = async () =>
    (await v.s.gql('query($p: String) { skill(name: "typescript-style", project: $p) { source } }', { p: PROJECT })).data!.skill.source as string;
  const goSkill = async (page: Page) => {
    await page.goto(`${v.base}/admin/#/skills/${SKILL}/show`);
    await page.getByTestId('skill-status').waitFor();
  };

  beforeAll(async () => {
    v = await startBrowserVance();
    expect((await v.s.gql(`mutation { createProject(name: "${PROJECT}") { name } }`)).errors).toBeUndefined();
    expect((await v.s.gql('mutation($p: String!, $c: String!) { putDocument(layer: PROJECT, project: "team", path: $p, content: $c) { version } }', { p: NOTE_PATH, c: 'Team notes.\n' })).errors).toBeUndefined();
    memberToken = await createUser(v.s, 'mem');
    leadToken = await createUser(v.s, 'lead');
    expect((await v.s.gql(`mutation { addProjectMember(project: "${PROJECT}", login: "mem", role: MEMBER) { role } }`)).errors).toBeUndefined();
    expect((await v.s.gql(`mutation { addProjectMember(project: "${PROJECT}", login: "lead", role: ADMIN) { role } }`)).errors).toBeUndefined();
  }, 300_000);

  afterAll(async () => {
    await v?.close();
  });

  it('offers a project MEMBER only what it may do: no override into PROJECT or VANCE, a read-only PROJECT layer, no settings or user writes', async () => {
    const page = await open(memberToken);
    await goSkill(page);
    // The USER layer is the member's own: that override stays; the PROJECT and VANCE ones are gone.
    await page.getByTestId('override-USER').waitFor();
    expect(await page.getByTestId('override-PROJECT').count()).toBe(0);
    expect(await page.getByTestId('override-VANCE').count()).toBe(0);
    await page.getByRole('link', { name: 'View SKILL.md (RESOURCE)' }).waitFor();
    await v.shot(page, 'roles-member-skill');

    await page.goto(`${v.base}/admin/#/documents/${encodeURIComponent(`PROJECT:${NOTE_PATH}`)}`);
    await page.getByTestId('read-only-layer').waitFor();
    await page.locator('.cm-content').getByText('Team notes.').waitFor();
    expect(await page.getByTestId('save-document').count()).toBe(0);
    expect(await page.getByTestId('delete-document').count()).toBe(0);
    expect(await page.getByTestId('copy-to-VANCE').count()).toBe(0);
    await page.getByTestId('copy-to-USER').waitFor();
    await v.shot(page, 'roles-member-document');

    await page.goto(`${v.base}/admin/#/settings`);
    await page.getByTestId('settings-read-only').waitFor();
    await page.getByTestId('provider-key').fill('sk-member');
    expect(await page.getByTestId('save-provider-key').isDisabled()).toBe(true);
    await page.getByRole('tab', { name: 'Users, projects, members' }).click();
    await page.getByTestId('users-table').waitFor();
    expect(await page.getByTestId('create-user-form').count()).toBe(0);
    expect(await page.getByTestId('create-project-form').count()).toBe(0);
    await page.getByTestId('members-table').locator('tr[data-login="mem"]').waitFor();
    expect(await page.getByTestId('add-member').isDisabled()).toBe(true);
    await v.shot(page, 'roles-member-settings');
    expect(await toasts(page)).toEqual([]);
    await page.context().close();
  });

  it('shows a refusal as an error and keeps the user logged in: no success toast, nothing written', async () => {
    const page = await open(leadToken);
    await goSkill(page);
    await page.getByTestId('override-PROJECT').waitFor();
    // The lead is demoted while the page is open: the button is stale, the API refuses the write.
    expect((await v.s.gql(`mutation { addProjectMember(project: "${PROJECT}", login: "lead", role: MEMBER) { role } }`)).errors).toBeUndefined();
    await page.getByTestId('override-PROJECT').click();
    await expect.poll(async () => (await toasts(page)).map((t) => t.type), { timeout: WAIT }).toContain('error');
    const shown = await toasts(page);
    expect(shown.filter((t) => t.type === 'success')).toEqual([]);
    expect(shown.find((t) => t.type === 'error')?.text).toMatch(/The PROJECT layer is read-only for you/);
    await v.shot(page, 'roles-refused-override');
    // Still logged in, still on the skill, and nothing was written.
    expect(await page.evaluate('localStorage.getItem("vance.token")')).toBe(leadToken);
    expect(page.url()).toContain(`#/skills/${SKILL}/show`);
    await page.getByRole('menuitem', { name: 'Layers' }).waitFor();
    expect(await page.getByLabel('API token').count()).toBe(0);
    expect(await skillSource()).toBe('RESOURCE');
    // The refusal reloaded the permissions: the stale offer is gone, the USER one stays.
    await expect.poll(() => page.getByTestId('override-PROJECT').count(), { timeout: WAIT }).toBe(0);
    await page.getByTestId('override-USER').waitFor();
    await page.context().close();
  });

  it('lets an ADMIN override the skill into the project with a truthful success toast', async () => {
    const page = await open(ADMIN_TOKEN);
    await goSkill(page);
    await page.getByTestId('override-PROJECT').click();
    await page.getByTestId('effective-source').filter({ hasText: 'Effective copy: PROJECT (this one)' }).waitFor();
    expect(await skillSource()).toBe('PROJECT');
    await expect.poll(async () => (await toasts(page)).filter((t) => t.type === 'success').map((t) => t.text), { timeout: WAIT })
      .toContain(`Copied ${SKILL} into the PROJECT layer`);
    expect((await toasts(page)).filter((t) => t.type === 'error')).toEqual([]);
    await page.getByTestId('save-document').waitFor();
    await v.shot(page, 'roles-admin-override');

    // A token the API no longer accepts: the action fails with the login page, never with a success toast.
    await goSkill(page);
    await page.getByTestId('override-USER').waitFor();
    const before = (await toasts(page)).length;
    await page.evaluate('localStorage.setItem("vance.token", "revoked-token-0123456789")');
    await page.getByTestId('override-USER').click();
    await page.getByLabel('API token').waitFor();
    expect((await toasts(page)).slice(before).filter((t) => t.type === 'success')).toEqual([]);
    expect(await page.evaluate('localStorage.getItem("vance.token")')).toBeNull();
    const mine = await v.s.gql('{ document(layer: USER, path: "_vance/skills/typescript-style/SKILL.md") { version } }');
    expect(mine.data!.document).toBeNull();
    expect(errors.filter((m) => !m.startsWith('There was an error during concurrent rendering but React was able to recover'))).toEqual([]);
    await page.context().close();
  });
});
