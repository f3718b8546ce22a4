import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../api/src/persistence';
import type { ModelCallRequest, ModelProvider } from '../../api/src/domain/llm/model-provider';
import type { TurnStore } from '../../api/src/domain/turns/turn-store';
import { TURN_EVENTS_TOPIC, type NewTurnEvent } from '../../api/src/domain/turns/turn';
import { testDatabases } from '../support/databases';
import { collect, eventually, startTestVance, type TestVance } from './harness';

/**
 * Issue 18: TurnStarted, SkillVerdicts and PromptComposed wait for the turn's next write, and at
 * the latest 50 ms: an operator watching a slow model sees the composition before the model's first
 * text. Load-proof: the model here answers only once the composition was stored (or its write
 * failed), so the turn could never end if nothing but the model's text stored it.
 */
describe.each(testDatabases())('the composition of a turn whose model is slow ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let runner: { deps: { provider: ModelProvider; store: TurnStore } };
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db);
    runner = t.vance.services.turnRunner as unknown as typeof runner;
    await t.gql(`mutation { createProject(name: "held") { id } }`);
    await t.gql(`mutation P($c: String!) { putDocument(layer: VANCE, path: "_vance/recipes/plain.yaml", content: $c) { version } }`, {
      c: 'description: Plain\nengine: ford\nparams:\n  validation: false\n',
    });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  const spawn = async (): Promise<string> => (await t.gql(`mutation { spawnProcess(input: { project: "held", recipe: "plain" }) { id } }`)).data!.spawnProcess.id as string;

  /** The provider answers each call only once `gate` resolves; the store's events writes of `processId` go through `append`. */
  const withSlowModel = async <T>(
    processId: string, gate: () => Promise<void>,
    append: (events: readonly NewTurnEvent[], write: () => Promise<unknown>) => Promise<unknown>, body: () => Promise<T>,
  ): Promise<T> => {
    const { provider, store } = runner.deps;
    const stream = provider.stream.bind(provider);
    const appendEvents = store.appendEvents.bind(store);
    provider.stream = (request: ModelCallRequest) => (async function* slow() {
      await gate();
      yield* stream(request);
    })();
    store.appendEvents = ((tenantId, id, turnId, events, messages) => id === processId
      ? append(events, () => appendEvents(tenantId, id, turnId, events, messages))
      : appendEvents(tenantId, id, turnId, events, messages)) as TurnStore['appendEvents'];
    try {
      return await body();
    } finally {
      provider.stream = stream;
      store.appendEvents = appendEvents;
    }
  };

  const watch = async (id: string) => t.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { type: string; payload: any } }>(t.ws(), `subscription E($id: ID!) { turnEvents(processId: $id) { type payload } }`, { id }));

  it('stores and shows TurnStarted, SkillVerdicts and PromptComposed while the model has not answered, in order, by a write of their own', async () => {
    const id = await spawn();
    let stored!: () => void;
    const composed = new Promise<void>((resolve) => (stored = resolve));
    const writes: string[][] = [];
    const seen = await withSlowModel(id, () => composed, async (events, write) => {
      const done = await write();
      writes.push(events.map((e) => e.type));
      if (events.some((e) => e.type === 'PromptComposed')) stored();
      return done;
    }, async () => {
      const events = await watch(id);
      await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "hello, slowly") { id } }`, { id });
      const types: string[] = [];
      while (types.at(-1) !== 'TurnFinished' && types.at(-1) !== 'TurnFailed') types.push((await events.next(30_000)).data!.turnEvents.type);
      events.stop();
      return types;
    });
    expect(writes[0]).toEqual(['TurnStarted', 'SkillVerdicts', 'PromptComposed']);
    expect(seen.slice(0, 3)).toEqual(['TurnStarted', 'SkillVerdicts', 'PromptComposed']);
    expect(seen.slice(3, -1).every((type) => type === 'TextDelta') && seen.length > 4, seen.join(' ')).toBe(true);
    expect(seen.at(-1)).toBe('TurnFinished');
  });

  it('fails the turn when that write fails, instead of finishing without its composition; its retry answers the message once', async () => {
    const id = await spawn();
    let tried!: () => void;
    const attempted = new Promise<void>((resolve) => (tried = resolve));
    let failures = 0;
    const seen = await withSlowModel(id, () => attempted, async (events, write) => {
      if (failures === 0 && events.some((e) => e.type === 'PromptComposed')) {
        failures++;
        tried();
        throw new Error('connection terminated (a database blip)');
      }
      return write();
    }, async () => {
      const events = await watch(id);
      await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "hello over a blip") { id } }`, { id });
      const types: string[] = [];
      while (types.at(-1) !== 'TurnFinished') types.push((await events.next(30_000)).data!.turnEvents.type);
      events.stop();
      return types;
    });
    expect(failures).toBe(1);
    // The failed turn shows only its end (what it held was lost with the write); the retry all of it.
    expect(seen.indexOf('TurnFailed'), seen.join(' ')).toBe(0);
    expect(seen.slice(1, 4)).toEqual(['TurnStarted', 'SkillVerdicts', 'PromptComposed']);
    await eventually(async () => ((await t.gql(`query T($id: ID!) { turns(processId: $id) { status } }`, { id })).data!.turns as { status: string }[]).map((x) => x.status).join() === 'FAILED,FINISHED');
    const log = (await t.gql(`query L($id: ID!) { messages(processId: $id) { role content } }`, { id })).data!.messages as { role: string; content: string }[];
    expect(log.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['hello over a blip']);
    expect(log.filter((m) => m.role === 'assistant')).toHaveLength(1);
  });
});
