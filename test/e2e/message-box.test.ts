/**
 * The process page's message box in Chromium (issue 17 point 4): a line starting with `/skill` runs
 * skillCommand, never sendMessage — the page shows what it did (activated with its summary, the
 * list) or why it was refused; typing `/skill ` offers completions from skillCompletions (only what
 * the recipe allows); any other line is a message for the model, queued by sendMessage as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, openBrowserFixture, PROJECT, WAIT, type BrowserFixture } from './browser-fixture';

const RECIPE = '# e2e: only TypeScript style may be active\ndescription: Steering from the message box\nengine: ford\nallowedSkills: typescript-style\n';

describe.skipIf(!HAS_CHROMIUM)('process message box in Chromium', { timeout: 240_000 }, () => {
  let f: BrowserFixture;
  let processId: string;
  beforeAll(async () => {
    f = await openBrowserFixture();
    await f.ok('mutation($c: String!) { putDocument(layer: PROJECT, project: "web", path: "_vance/recipes/e2e-steer.yaml", content: $c) { version } }', { c: RECIPE });
    processId = (await f.ok(`mutation { spawnProcess(input: { project: "${PROJECT}", recipe: "e2e-steer", name: "steered" }) { id } }`)).spawnProcess.id;
  }, 300_000);
  afterAll(async () => { await f?.close(); });

  const state = async () => (await f.ok('query($id: ID!) { process(id: $id) { activeSkills { name } pending { content } } messages(processId: $id) { content } }', { id: processId }));
  const input = () => f.page.getByTestId('message-input');
  const result = () => f.page.getByTestId('skill-command-result');

  it('offers completions for /skill from skillCompletions, only what the recipe allows', async () => {
    await f.go(`/processes/${encodeURIComponent(processId)}/show`);
    await input().fill('/skill ');
    const completions = f.page.getByTestId('skill-completions');
    await completions.getByTestId('completion-typescript-style').waitFor();
    await completions.getByTestId('completion-list').waitFor();
    expect(await completions.getByTestId('completion-code-guard').count()).toBe(0);
    await input().fill('/skill ty');
    await expect.poll(() => completions.locator('button').allTextContents(), { timeout: WAIT }).toEqual(['typescript-style']);
    await completions.getByTestId('completion-typescript-style').click();
    expect(await input().inputValue()).toBe('/skill typescript-style ');
    await f.shot('message-box-completions');
  });

  it('runs /skill <name> through skillCommand: activated with its summary, nothing sent to the model', async () => {
    await f.page.getByTestId('send-message').click();
    await result().and(f.page.locator('[data-kind="ACTIVATE"]')).filter({ hasText: /typescript-style/ }).waitFor();
    expect(await input().inputValue()).toBe('');
    const after = await state();
    expect(after.process.activeSkills.map((s: { name: string }) => s.name)).toEqual(['typescript-style']);
    expect(after.process.pending).toEqual([]);
    expect(after.messages).toEqual([]);
  });

  it('shows a refusal with the reason from the error, and keeps the line to fix', async () => {
    await input().fill('/skill code-guard');
    await f.page.getByTestId('send-message').click();
    await result().and(f.page.locator('[data-kind="REFUSED"]')).filter({ hasText: "Skill 'code-guard' is not allowed by recipe 'e2e-steer'" }).waitFor();
    expect(await input().inputValue()).toBe('/skill code-guard');
    // Still logged in, still on the page: a refusal is an answer, not a logout.
    expect(await f.page.evaluate('localStorage.getItem("vance.token")')).not.toBeNull();
    await f.shot('message-box-refused');
    expect((await state()).process.pending).toEqual([]);
  });

  it('shows /skill list as a list with what is active', async () => {
    await input().fill('/SKILL list');
    await f.page.getByTestId('send-message').click();
    await result().and(f.page.locator('[data-kind="LIST"]')).waitFor();
    await f.page.getByTestId('skill-list').locator('tr[data-skill="typescript-style"][data-active="true"]').waitFor();
    await f.shot('message-box-list');
  });

  it('sends any other line to the model with sendMessage, as before', async () => {
    await input().fill('please look at /skill lines later');
    expect(await f.page.getByTestId('send-message').getAttribute('data-command')).toBe('message');
    await f.page.getByTestId('send-message').click();
    await f.page.getByTestId('pending-message').filter({ hasText: 'please look at /skill lines later' }).waitFor();
    expect((await state()).process.pending).toEqual([{ content: 'please look at /skill lines later' }]);
    expect(f.pageErrors).toEqual([]);
  });
});
