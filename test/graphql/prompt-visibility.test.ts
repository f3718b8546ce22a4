import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { collect, startTestVance, type TestVance } from './harness';

const EVENTS = `subscription E($id: ID!) { turnEvents(processId: $id) { type payload } }`;
const EVENTS_WITH_IDS = `subscription E($id: ID!) { turnEvents(processId: $id) { id type payload } }`;
type Event = { id: string; type: string; payload: any };
type Subscriber = { owner: boolean; events: ReturnType<typeof collect<{ turnEvents: Event }>> };
const PREVIEW = `query P($id: ID!) { composeTurnPreview(processId: $id) { sections { kind text } request { messages { role content } } } }`;

// Issue 5: a composed prompt's full text goes only to those allowed to read the recipe. A recipe
// from the owner's private USER layer is readable by the owner alone, not by admins who see the process.
describe.each(testDatabases())('prompt text visibility ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let owner: string;
  let id: string;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db);
    await t.gql(`mutation { createProject(name: "lab") { id } }`);
    owner = (await t.gql(`mutation { createUser(login: "owen") { token } }`)).data!.createUser.token;
    await t.gql(`mutation { addProjectMember(project: "lab", login: "owen") { role } }`);
    await t.gql(`mutation P($c: String!) { putDocument(layer: USER, path: "_vance/recipes/mine.yaml", content: $c) { version } }`,
      { c: 'description: private\nengine: ford\npromptPrefix: "Secret owner instructions."\n' }, owner);
    id = (await t.gql(`mutation { spawnProcess(input: { project: "lab", recipe: "mine" }) { id } }`, {}, owner)).data!.spawnProcess.id;
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('shows the owner the prompt text and an admin only its shape', async () => {
    const ownerR = await t.gql(PREVIEW, { id }, owner);
    expect(ownerR.errors).toBeUndefined();
    const ownerPreview = ownerR.data?.composeTurnPreview;
    expect(JSON.stringify(ownerPreview)).toContain('Secret owner instructions.');
    const adminPreview = (await t.gql(PREVIEW, { id })).data?.composeTurnPreview;
    expect(JSON.stringify(adminPreview)).not.toContain('Secret owner instructions.');

    // Load: both subscriptions are seen registered instead of a 300 ms sleep.
    const asAdmin = await t.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { type: string; payload: any } }>(t.ws(), EVENTS, { id }));
    const asOwner = await t.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { type: string; payload: any } }>(t.ws(owner), EVENTS, { id }));
    await t.gql(`mutation { sendMessage(processId: "${id}", text: "hello") { id } }`, {}, owner);
    const composed = async (s: typeof asAdmin) => {
      for (;;) {
        const e = (await s.next(15_000)).data!.turnEvents;
        if (e.type === 'PromptComposed') return e.payload;
      }
    };
    const ownerView = await composed(asOwner);
    const adminView = await composed(asAdmin);
    expect(JSON.stringify(ownerView)).toContain('Secret owner instructions.');
    expect(adminView.redacted).toBe(true);
    expect(JSON.stringify(adminView)).not.toContain('Secret owner instructions.');
    expect(adminView.sections.length).toBe(ownerView.sections.length);
  });

  // Issue 18: a turn event is executed and encoded once per event and view, and shared by the
  // subscribers with that view (shared-subscription-results.ts). Shared must never mean "the first
  // subscriber's view for all": the owner's private USER-layer prompt reaches the owner only.
  it('gives each subscriber its own view, in order: the non-owners the same redacted events, the owner the full text', async () => {
    // Owner and admin subscriptions interleaved, so neither view is the one executed first for all.
    const subs: Subscriber[] = [];
    for (const token of [undefined, owner, undefined, owner, undefined]) {
      subs.push({ owner: token === owner, events: await t.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: Event }>(t.ws(token), EVENTS_WITH_IDS, { id })) });
    }
    await t.gql(`mutation { sendMessage(processId: "${id}", text: "hello") { id } }`, {}, owner);
    const untilFinished = async (s: Subscriber['events']) => {
      const seen: Event[] = [];
      for (;;) {
        const e = (await s.next(20_000)).data!.turnEvents;
        seen.push(e);
        if (e.type === 'TurnFinished' || e.type === 'TurnFailed') return seen;
      }
    };
    const views = await Promise.all(subs.map(async (s) => ({ owner: s.owner, events: await untilFinished(s.events) })));
    const ids = views[0]!.events.map((e) => e.id);
    expect(ids.map(BigInt)).toEqual([...ids.map(BigInt)].sort((a, b) => (a < b ? -1 : 1)));
    for (const v of views) expect(v.events.map((e) => e.id)).toEqual(ids);

    const composed = (v: (typeof views)[number]) => JSON.stringify(v.events.find((e) => e.type === 'PromptComposed'));
    const [admin, ownerView] = [views.find((v) => !v.owner)!, views.find((v) => v.owner)!];
    expect(composed(ownerView)).toContain('Secret owner instructions.');
    expect(composed(admin)).not.toContain('Secret owner instructions.');
    for (const v of views) expect(JSON.stringify(v.events)).toBe(JSON.stringify((v.owner ? ownerView : admin).events));
  });
});
