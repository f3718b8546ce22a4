/**
 * What the role and login e2e files share: a real Vance (harness, offline provider) serving the
 * built admin/dist at /admin, Debian's Chromium through playwright-core (never a browser download),
 * screenshots into test/e2e/screenshots/ (git-ignored), and users made over GraphQL with their tokens.
 * dashboard.test.ts predates it and keeps its own copy of the launch.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { testDatabases } from '../support/databases';
import { startTestVance, type TestVance } from '../graphql/harness';
import type { Database } from '../../api/src/persistence';
import { ensureAdminBuilt } from './build-admin';
import { CHROMIUM, HAS_CHROMIUM, SHOTS, WAIT, launchChromium } from './chromium';

export { CHROMIUM, HAS_CHROMIUM, SHOTS, WAIT };


export interface BrowserVance {
  readonly s: TestVance;
  readonly base: string;
  readonly browser: Browser;
  /** A fresh page (own localStorage) with the generous default timeout and page errors collected. */
  newPage(errors?: string[]): Promise<Page>;
  shot(page: Page, name: string): Promise<Buffer>;
  close(): Promise<void>;
}

export async function startBrowserVance(): Promise<BrowserVance> {
  mkdirSync(SHOTS, { recursive: true });
  ensureAdminBuilt();
  const db: Database = await testDatabases()[0]!.open();
  const s = await startTestVance(db);
  const browser = await launchChromium();
  return {
    s,
    base: s.url.replace(/\/graphql$/, ''),
    browser,
    newPage: async (errors) => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(WAIT);
      page.on('pageerror', (err) => errors?.push(err.message));
      return page;
    },
    shot: (page, name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true }),
    close: async () => {
      await browser.close();
      await s.close();
      await db.close();
    },
  };
}

/** A new user of the default tenant and its token. */
export async function createUser(s: TestVance, login: string, role: 'MEMBER' | 'TENANT_ADMIN' = 'MEMBER'): Promise<string> {
  const r = await s.gql('mutation($l: String!, $r: UserRole!) { createUser(login: $l, role: $r) { token } }', { l: login, r: role });
  expect(r.errors).toBeUndefined();
  return r.data!.createUser.token as string;
}

/** Logs in through the login form; resolves once the menu shows. */
export async function logIn(page: Page, base: string, token: string): Promise<void> {
  await page.goto(`${base}/admin/`);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('menuitem', { name: 'Layers' }).waitFor();
}
