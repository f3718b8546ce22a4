import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { codeOf, startTestVance, type TestVance } from './harness';

/**
 * Issue 15, item 4 — steering details of a `/skill` line (seed 000 §2b, §6a, §7d), through
 * skillCommand and activateSkill: where the rest of the line goes, where `--once` counts, and what a
 * re-activation says it changed.
 */
const PUT = `mutation Put($path: String!, $content: String!) { putDocument(layer: VANCE, path: $path, content: $content) { version } }`;
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id } }`;
const COMMAND = `mutation C($id: ID!, $line: String!) { skillCommand(processId: $id, line: $line) {
  kind message activation { outcome reason }
  process { activeSkills { name oneShot fromRecipe args } pending { sender content } }
} }`;
const ACTIVATE = `mutation A($id: ID!, $name: String!, $args: String, $once: Boolean) {
  activateSkill(processId: $id, name: $name, args: $args, once: $once) { outcome reason process { activeSkills { name oneShot args } } }
}`;
const PREVIEW = `query P($id: ID!) { composeTurnPreview(processId: $id) { sections { kind text } } }`;
const VALIDATE = `query V($path: String!, $content: String!) { validateDocument(path: $path, content: $content) { severity field line message } }`;
const PUT_DIAGNOSTICS = `mutation Put($path: String!, $content: String!) { putDocument(layer: VANCE, path: $path, content: $content) { diagnostics { severity field line message } } }`;

const skill = (name: string, extra = '', body = `The ${name} method.`) =>
  `---\ntitle: ${name}\ndescription: Skill ${name}\nversion: "1.0.0"\n${extra}---\n${body}\n`;

// A body that tells whether the render context has `args` at all.
const ARGS_PROBE = '{% if args %}ARGS[{{ args.text }}]{% else %}NO-ARGS{% endif %}';

type Ref = { name: string; oneShot: boolean; fromRecipe: boolean; args: string | null };

describe.each(testDatabases())('/skill lines: the rest of the line, --once, re-activation ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, {}, { runTurns: false });
    await t.gql(`mutation { createProject(name: "ops") { id } }`);
    const docs: Record<string, string> = {
      '_vance/recipes/moded.yaml': 'description: With a recipe skill\nengine: ford\ndefaultActiveSkills: [house-style]\n',
      '_vance/skills/review-mode/SKILL.md': skill('review-mode', '', `Review mode. ${ARGS_PROBE}`),
      '_vance/skills/house-style/SKILL.md': skill('house-style'),
      '_vance/skills/rawy/SKILL.md': skill('rawy', 'arguments: true\n', `Raw. ${ARGS_PROBE}`),
      '_vance/skills/macro/SKILL.md': skill('macro', 'lifecycle: shot\n', `Macro: ${ARGS_PROBE}`),
    };
    for (const [path, content] of Object.entries(docs)) {
      const r = await t.gql(PUT, { path, content });
      if (r.errors) throw new Error(`${path}: ${JSON.stringify(r.errors)}`);
    }
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  const spawn = async (recipe = 'default'): Promise<string> => (await t.gql(SPAWN, { input: { project: 'ops', recipe } })).data!.spawnProcess.id;
  const command = async (id: string, line: string) => {
    const r = await t.gql(COMMAND, { id, line });
    if (r.errors) throw new Error(`${line}: ${JSON.stringify(r.errors)}`);
    return r.data!.skillCommand as { kind: string; message: string; activation: { outcome: string; reason: string }; process: { activeSkills: Ref[]; pending: { sender: string; content: string }[] } };
  };
  const ref = (refs: Ref[], name: string): Ref | undefined => refs.find((r) => r.name === name);
  const skillsSection = async (id: string): Promise<string> =>
    ((await t.gql(PREVIEW, { id })).data!.composeTurnPreview.sections as { kind: string; text: string }[]).find((s) => s.kind === 'SKILLS')?.text ?? '';

  // Before: the active ref kept the rest of the line as its args, and the body saw args = {text: "", words: []}.
  it('a skill without arguments: binds nothing, keeps no args, and sends the rest of the line as the user message', async () => {
    const id = await spawn();
    const r = await command(id, '/skill review-mode please look at x');
    expect(r.activation.outcome).toBe('ACTIVATED');
    expect(ref(r.process.activeSkills, 'review-mode')).toMatchObject({ oneShot: false, args: null });
    expect(r.process.pending).toEqual([{ sender: 'USER', content: 'please look at x' }]);
    expect(r.message).toContain('sent as your message');
    const section = await skillsSection(id);
    expect(section).toContain('Review mode. NO-ARGS');
  });

  it('a skill that consumes arguments keeps them and sends no user message', async () => {
    const id = await spawn();
    const r = await command(id, '/skill rawy please look at x');
    expect(ref(r.process.activeSkills, 'rawy')).toMatchObject({ args: 'please look at x' });
    expect(r.process.pending).toEqual([]);
    expect(await skillsSection(id)).toContain('Raw. ARGS[please look at x]');
  });

  it('a shot skill without arguments renders its turn prompt without args; the rest follows as the user message', async () => {
    const id = await spawn();
    const r = await command(id, '/skill macro tidy up');
    expect(r.activation.outcome).toBe('FIRED');
    expect(r.process.pending).toEqual([{ sender: 'SKILL', content: 'Macro: NO-ARGS' }, { sender: 'USER', content: 'tidy up' }]);
  });

  // Before: only a leading --once was the flag, and --ONCE counted as it.
  it('takes --once as the flag wherever it stands, case-sensitively', async () => {
    const id = await spawn();
    const late = await command(id, '/skill rawy do thing --once');
    expect(ref(late.process.activeSkills, 'rawy')).toMatchObject({ oneShot: true, args: 'do thing' });
    const upper = await command(await spawn(), '/skill rawy --ONCE do thing');
    expect(ref(upper.process.activeSkills, 'rawy')).toMatchObject({ oneShot: false, args: '--ONCE do thing' });
    const message = await command(await spawn(), '/skill review-mode look at x --once');
    expect(ref(message.process.activeSkills, 'review-mode')).toMatchObject({ oneShot: true, args: null });
    expect(message.process.pending).toEqual([{ sender: 'USER', content: 'look at x' }]);
    expect(codeOf(await t.gql(COMMAND, { id, line: '/skill --ONCE rawy' }))).toBe('BAD_USER_INPUT');
  });

  // Before: a re-activation answered only "Explicit: /skill … ." and --once never turned a sticky skill one-shot.
  it('says what a re-activation changed: sticky → one-shot, one-shot → sticky, or nothing', async () => {
    const id = await spawn();
    const first = await command(id, '/skill review-mode');
    expect(first.message).toBe('review-mode is active (sticky).');
    const once = await command(id, '/skill review-mode --once');
    expect(once.activation.outcome).toBe('UPDATED');
    expect(once.message).toBe('review-mode was sticky; now one-shot for the next turn.');
    expect(ref(once.process.activeSkills, 'review-mode')?.oneShot).toBe(true);
    const again = await command(id, '/skill review-mode --once');
    expect(again.message).toBe('review-mode is already active (one-shot for the next turn); unchanged.');
    const sticky = await command(id, '/skill review-mode');
    expect(sticky.message).toBe('review-mode was one-shot; now sticky.');
    expect(ref(sticky.process.activeSkills, 'review-mode')?.oneShot).toBe(false);
    const same = await command(id, '/skill review-mode');
    expect(same.message).toBe('review-mode is already active (sticky); unchanged.');
    expect(same.activation.reason).toContain('already active (sticky); unchanged');
  });

  it('names new arguments of a re-activation, and keeps a recipe skill sticky under --once', async () => {
    const id = await spawn('moded');
    await command(id, '/skill rawy one');
    const updated = await command(id, '/skill rawy two --once');
    expect(updated.message).toBe("rawy was sticky; now one-shot for the next turn; its arguments are now 'two'.");
    expect(ref(updated.process.activeSkills, 'rawy')).toMatchObject({ oneShot: true, args: 'two' });
    const recipe = await command(id, '/skill house-style --once');
    expect(recipe.message).toBe("house-style stays sticky: it is one of the recipe's skills; unchanged.");
    expect(ref(recipe.process.activeSkills, 'house-style')).toMatchObject({ oneShot: false, fromRecipe: true });
  });

  // Before: `arguments: scope`, `- depth` and `type: Integer` were read without a word (Integer lower-cased).
  it('reports the arguments: forms outside the schema at their lines when validating and saving', async () => {
    const path = '_vance/skills/argued/SKILL.md';
    const loose = skill('argued', 'arguments: scope\n');
    expect((await t.gql(VALIDATE, { path, content: loose })).data!.validateDocument).toEqual([
      { severity: 'WARNING', field: 'arguments', line: 5, message: "`arguments` is text, read as the argument name 'scope'. Write `true`, `false` or a list of arguments (`- name: scope`)." },
    ]);
    expect((await t.gql(PUT_DIAGNOSTICS, { path, content: loose })).data!.putDocument.diagnostics).toEqual([
      expect.objectContaining({ severity: 'WARNING', field: 'arguments', line: 5 }),
    ]);
    const bare = skill('argued', 'arguments:\n  - name: scope\n  - depth\n');
    expect((await t.gql(VALIDATE, { path, content: bare })).data!.validateDocument).toEqual([
      expect.objectContaining({ severity: 'WARNING', field: 'arguments[1]', line: 7, message: expect.stringContaining("bare name, read as the string argument 'depth'") }),
    ]);
    const typed = skill('argued', 'arguments:\n  - name: n\n    type: Integer\n');
    expect((await t.gql(VALIDATE, { path, content: typed })).data!.validateDocument).toEqual([
      expect.objectContaining({ severity: 'ERROR', field: 'arguments[0].type', line: 7, message: expect.stringContaining('found the text \'Integer\'. Did you mean `integer`?') }),
    ]);
    const refused = await t.gql(PUT_DIAGNOSTICS, { path, content: typed });
    expect(codeOf(refused)).toBe('BAD_USER_INPUT');
    expect(refused.errors![0]!.extensions!.diagnostics).toContainEqual(expect.objectContaining({ field: 'arguments[0].type', line: 7 }));
  });

  it('warns where a skill without arguments: reads args, which it never gets', async () => {
    const path = '_vance/skills/unbound/SKILL.md';
    const content = skill('unbound', 'action: "Look at {{ args.text }}"\n', 'Body line.\n{{ args.text }}');
    expect((await t.gql(VALIDATE, { path, content })).data!.validateDocument).toEqual([
      expect.objectContaining({ severity: 'WARNING', field: 'action', line: 5, message: expect.stringContaining('`action` uses `args`') }),
      expect.objectContaining({ severity: 'WARNING', field: 'body', line: 7, message: expect.stringContaining('The body uses `args`, but the skill has no `arguments:`') }),
    ]);
    expect((await t.gql(VALIDATE, { path, content: skill('unbound', 'arguments: true\n', '{{ args.text }}') })).data!.validateDocument).toEqual([]);
  });

  it('activateSkill says the same in its reason', async () => {
    const id = await spawn();
    await t.gql(ACTIVATE, { id, name: 'review-mode' });
    const r = (await t.gql(ACTIVATE, { id, name: 'review-mode', once: true })).data!.activateSkill;
    expect(r.outcome).toBe('UPDATED');
    expect(r.reason).toContain('review-mode was sticky; now one-shot for the next turn.');
    expect(r.process.activeSkills).toEqual([{ name: 'review-mode', oneShot: true, args: null }]);
  });
});
