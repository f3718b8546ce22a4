/**
 * One Vance (harness, offline provider) serving the built admin/dist, one Chromium (playwright-core,
 * Debian's /usr/bin/chromium, never a download) and a page already logged in as the admin with the
 * project `web` chosen — for the topic files (editor, message box, whitelist) that need no login
 * walk-through of their own (dashboard.test.ts has that). Screenshots go to test/e2e/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { testDatabases } from '../support/databases';
import { ADMIN_TOKEN, startTestVance, type TestVance } from '../graphql/harness';
import type { Database } from '../../api/src/persistence';
import { ensureAdminBuilt } from './build-admin';
import { CHROMIUM, HAS_CHROMIUM, SHOTS, WAIT, launchChromium } from './chromium';

export { CHROMIUM, HAS_CHROMIUM, WAIT };

export const PROJECT = 'web';
/** Every wait: generous, for a loaded 2-core machine (expect.poll's own default is 1 s). */

export interface BrowserFixture {
  s: TestVance;
  page: Page;
  base: string;
  pageErrors: string[];
  /** Opens a hash route of the dashboard. */
  go(route: string): Promise<void>;
  shot(name: string): Promise<unknown>;
  /** A GraphQL call that must succeed (as the admin unless a token is given). */
  ok<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<T>;
  /** Another page in its own browser context, logged in with `token` (e.g. a MEMBER's). */
  pageFor(token: string): Promise<Page>;
  close(): Promise<void>;
}

export async function openBrowserFixture(options: { runTurns?: boolean } = {}): Promise<BrowserFixture> {
  mkdirSync(SHOTS, { recursive: true });
  ensureAdminBuilt();
  const db: Database = await testDatabases()[0]!.open();
  const s = await startTestVance(db, {}, { runTurns: options.runTurns ?? false });
  const base = s.url.replace(/\/graphql$/, '');
  const ok = async (query: string, variables: Record<string, unknown> = {}, token = ADMIN_TOKEN) => {
    const result = await s.gql(query, variables, token);
    expect(result.errors).toBeUndefined();
    return result.data as any;
  };
  await ok(`mutation { createProject(name: "${PROJECT}") { name } }`);
  const browser: Browser = await launchChromium();
  const pageErrors: string[] = [];
  const pageFor = async (token: string) => {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    page.setDefaultTimeout(WAIT);
    page.on('pageerror', (err) => pageErrors.push(err.message));
    // Logged in as the session stores it (admin/src/api/session.ts), before the app first reads it.
    await page.addInitScript(`if (!localStorage.getItem('vance.token')) localStorage.setItem('vance.token', ${JSON.stringify(token)});
      if (!localStorage.getItem('vance.project')) localStorage.setItem('vance.project', ${JSON.stringify(PROJECT)});`);
    return page;
  };
  const page = await pageFor(ADMIN_TOKEN);
  return {
    s, page, base, pageErrors, ok, pageFor,
    go: async (route) => { await page.goto(`${base}/admin/#${route}`); },
    shot: (name) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true }),
    close: async () => {
      await browser.close();
      await s.close();
      await db.close();
    },
  };
}
