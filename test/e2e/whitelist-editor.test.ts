/**
 * The recipe whitelist editor in Chromium (issue 17 point 3): each form of allowedSkills the server
 * parses — a scalar (one allowed skill), a list, [] (lockdown), absent (no restriction) — shows as the
 * server reads it, and a save writes what the editor showed, with the recipe's comments kept. A form
 * the editor cannot write back with the same meaning (an alias) is shown read-only, without a save.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, openBrowserFixture, PROJECT, type BrowserFixture } from './browser-fixture';

const PUT = 'mutation($p: String!, $c: String!) { putDocument(layer: PROJECT, project: "web", path: $p, content: $c) { version } }';
const HEAD = '# e2e recipe — this comment stays\ndescription: Whitelist forms\nengine: ford\n';

describe.skipIf(!HAS_CHROMIUM)('recipe whitelist editor in Chromium', { timeout: 240_000 }, () => {
  let f: BrowserFixture;
  beforeAll(async () => { f = await openBrowserFixture(); }, 300_000);
  afterAll(async () => { await f?.close(); });

  const server = async (name: string) => {
    const data = await f.ok(`query($n: String!, $p: String) { recipe(name: $n, project: $p) { allowedSkills defaultActiveSkills } document(layer: PROJECT, project: $p, path: $path) { content } }`
      .replace('$path', `"_vance/recipes/${name}.yaml"`), { n: name, p: PROJECT });
    return { allowed: data.recipe.allowedSkills as string[] | null, defaults: data.recipe.defaultActiveSkills as string[], content: data.document.content as string };
  };
  /** Writes the recipe, opens its page, and waits for the editor to show `mode`. */
  const open = async (name: string, yaml: string, mode: 'none' | 'list' | 'lockdown') => {
    await f.ok(PUT, { p: `_vance/recipes/${name}.yaml`, c: yaml });
    await f.go(`/recipes/${name}`);
    await f.page.locator(`[data-testid="whitelist-editor"][data-recipe="${name}"] [data-mode="${mode}"]`).waitFor();
  };
  const allow = (skill: string) => f.page.getByTestId(`allow-${skill}`).locator('input');
  const saved = (text: string) => f.page.getByTestId('whitelist-current').filter({ hasText: text }).waitFor();

  it('a scalar is one allowed skill (not lockdown); adding one writes both, comments kept', async () => {
    await open('e2e-scalar', `${HEAD}allowedSkills: code-guard # only the guard\n`, 'list');
    expect(await allow('code-guard').isChecked()).toBe(true);
    expect(await allow('typescript-style').isChecked()).toBe(false);
    expect(await f.page.getByTestId('save-whitelist').isDisabled()).toBe(true);
    await f.shot('whitelist-scalar');
    await allow('typescript-style').check();
    await f.page.getByTestId('save-whitelist').click();
    await saved('now: allowed code-guard, typescript-style');
    const after = await server('e2e-scalar');
    expect(after.allowed).toEqual(['code-guard', 'typescript-style']);
    expect(after.content).toContain('# e2e recipe — this comment stays');
    expect(after.content).toContain('# only the guard');
  });

  it('a list: dropping an entry keeps the others and their comments', async () => {
    await open('e2e-list', `${HEAD}# who may be active\nallowedSkills:\n  - code-guard # the guard\n  - typescript-style\ndefaultActiveSkills: [code-guard]\n`, 'list');
    expect(await allow('typescript-style').isChecked()).toBe(true);
    expect(await f.page.getByTestId('default-code-guard').locator('input').isChecked()).toBe(true);
    await allow('typescript-style').uncheck();
    await f.page.getByTestId('save-whitelist').click();
    await saved('now: allowed code-guard · default code-guard');
    const after = await server('e2e-list');
    expect(after).toMatchObject({ allowed: ['code-guard'], defaults: ['code-guard'] });
    expect(after.content).toContain('# who may be active\nallowedSkills:\n  - code-guard # the guard\n');
  });

  it('[] is lockdown; opening it up removes the key and keeps the comments', async () => {
    await open('e2e-lockdown', `${HEAD}# nothing may be active\nallowedSkills: []\nlisted: false\n`, 'lockdown');
    expect(await allow('code-guard').isDisabled()).toBe(true);
    await f.page.getByTestId('mode-none').click();
    await f.page.getByTestId('save-whitelist').click();
    await saved('now: no restriction');
    const after = await server('e2e-lockdown');
    expect(after.allowed).toBeNull();
    expect(after.content).not.toContain('allowedSkills');
    expect(after.content).toContain('# e2e recipe — this comment stays');
    expect(after.content).toContain('# nothing may be active');
  });

  it('absent is no restriction; a lockdown from there writes allowedSkills: []', async () => {
    await open('e2e-absent', `${HEAD}listed: false # stays\n`, 'none');
    expect(await allow('code-guard').isChecked()).toBe(true);
    await f.page.getByTestId('mode-lockdown').click();
    await f.page.getByTestId('save-whitelist').click();
    await saved('now: lockdown');
    const after = await server('e2e-absent');
    expect(after.allowed).toEqual([]);
    expect(after.content).toBe(`${HEAD}listed: false # stays\nallowedSkills: []\n`);
  });

  it('an alias is shown as the server reads it, read-only, with no save offered', async () => {
    const yaml = `${HEAD}_mine: &mine [code-review]\nallowedSkills: *mine\n`;
    await open('e2e-alias', yaml, 'list');
    await f.page.getByTestId('whitelist-readonly').filter({ hasText: 'alias' }).waitFor();
    expect(await allow('code-review').isChecked()).toBe(true);
    expect(await allow('code-review').isDisabled()).toBe(true);
    expect(await f.page.getByTestId('mode-lockdown').locator('input').isDisabled()).toBe(true);
    expect(await f.page.getByTestId('save-whitelist').isDisabled()).toBe(true);
    await f.shot('whitelist-readonly');
    expect((await server('e2e-alias')).content).toBe(yaml);
  });
});
