import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../api/src/persistence';
import { CLIENT_TOOL_CALLS_TOPIC } from '../../api/src/domain/client-tools/client-tool-service';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { testDatabases } from '../support/databases';
import { collect, startTestVance, type TestVance } from './harness';

// Issue 14, item 5: sendMessage returns once the message is stored and its turn requested — not
// behind the running turn of its process (before: 19.98 s while the turn waited on a client tool).
// The client tool here never answers on its own (a 10-minute timeout), so a sendMessage that waited
// on the lane would not return before the test's own timeout.
describe.each(testDatabases())('sendMessage while the process runs a turn ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, { VANCE_CLIENT_TOOL_TIMEOUT_MS: '600000' });
    await t.gql(`mutation { createProject(name: "busy") { id } }`);
    await t.gql(`mutation P($c: String!) { putDocument(layer: VANCE, path: "_vance/recipes/plain.yaml", content: $c) { version } }`, {
      c: 'description: Plain\nengine: ford\nparams:\n  validation: false\n',
    });
    // A PROJECT skill with a keyword trigger: a message that fires it is the one that still takes the lane.
    await t.gql(`mutation P($c: String!) { putDocument(layer: PROJECT, project: "busy", path: "_vance/skills/deploy-help/SKILL.md", content: $c) { version } }`, {
      c: '---\nname: deploy-help\ndescription: Helps with deploys\ntriggers:\n  - type: KEYWORDS\n    keywords: [deploy]\n---\nSay how to deploy.\n',
    });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('answers at once, with the turn still running, and the message is answered by the next turn', async () => {
    const spawned = (await t.gql(`mutation { spawnProcess(input: { project: "busy", recipe: "plain", session: "laptop" }) { id session { id } } }`)).data!.spawnProcess;
    const id = spawned.id as string;
    const s = spawned.session.id as string;
    const calls = await t.bus.listening(CLIENT_TOOL_CALLS_TOPIC, () => collect<{ clientToolCalls: { callId: string } }>(t.ws(), `subscription C($s: ID!) { clientToolCalls(sessionId: $s) { callId } }`, { s }));
    expect((await t.gql(`mutation R($s: ID!) { registerClientTools(sessionId: $s, tools: [{ name: "local_echo" }]) { tools { name } } }`, { s })).errors).toBeUndefined();
    const events = await t.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { type: string } }>(t.ws(), `subscription E($id: ID!) { turnEvents(processId: $id) { type } }`, { id }));
    await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "call local_echo {\\"text\\": \\"wait\\"}") { id } }`, { id });
    const call = (await calls.next(60_000)).data!.clientToolCalls; // the turn now waits on the client
    const turns = async () => ((await t.gql(`query T($id: ID!) { turns(processId: $id) { status } }`, { id })).data!.turns as { status: string }[]).map((x) => x.status);

    const sent = await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "and one more thing") { id content } }`, { id });
    expect(sent.errors).toBeUndefined();
    expect(sent.data!.sendMessage.content).toBe('and one more thing');
    expect(await turns()).toEqual(['RUNNING']); // returned while the turn waits
    const pending = (await t.gql(`query P($id: ID!) { process(id: $id) { pending { content } } }`, { id })).data!.process.pending;
    expect(pending).toEqual([{ content: 'and one more thing' }]);

    expect((await t.gql(`mutation S($s: ID!, $c: ID!) { submitClientToolResult(sessionId: $s, callId: $c, result: "done") }`, { s, c: call.callId })).data?.submitClientToolResult).toBe(true);
    let finished = 0;
    while (finished < 2) if ((await events.next(60_000)).data!.turnEvents.type === 'TurnFinished') finished++;
    expect(await turns()).toEqual(['FINISHED', 'FINISHED']);
    const log = (await t.gql(`query L($id: ID!) { messages(processId: $id) { role content } }`, { id })).data!.messages as { role: string; content: string }[];
    expect(log.at(-1)!.content).toContain('You said: and one more thing');
    events.stop();
    calls.stop();
  });

  it('a message that fires a trigger waits for the running turn, and its skill is active for the turn that answers it', async () => {
    const spawned = (await t.gql(`mutation { spawnProcess(input: { project: "busy", recipe: "plain", session: "desk" }) { id session { id } } }`)).data!.spawnProcess;
    const id = spawned.id as string;
    const s = spawned.session.id as string;
    const calls = await t.bus.listening(CLIENT_TOOL_CALLS_TOPIC, () => collect<{ clientToolCalls: { callId: string } }>(t.ws(), `subscription C($s: ID!) { clientToolCalls(sessionId: $s) { callId } }`, { s }));
    await t.gql(`mutation R($s: ID!) { registerClientTools(sessionId: $s, tools: [{ name: "local_echo" }]) { tools { name } } }`, { s });
    const events = await t.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { type: string; payload: any } }>(t.ws(), `subscription E($id: ID!) { turnEvents(processId: $id) { type payload } }`, { id }));
    await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "call local_echo {\\"text\\": \\"wait\\"}") { id } }`, { id });
    const call = (await calls.next(60_000)).data!.clientToolCalls;
    // Its one-shot activation must come after the running turn's one-shot clean-up, so it takes the lane.
    const sent = t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "how do I deploy this?") { id } }`, { id });
    await t.gql(`mutation S($s: ID!, $c: ID!) { submitClientToolResult(sessionId: $s, callId: $c, result: "done") }`, { s, c: call.callId });
    expect((await sent).errors).toBeUndefined();
    const composed: string[][] = [];
    while (composed.length < 2) {
      const e = (await events.next(60_000)).data!.turnEvents;
      if (e.type === 'SkillVerdicts') composed.push((e.payload.skills as { skill: string; composed: boolean }[]).filter((x) => x.composed).map((x) => x.skill));
    }
    expect(composed).toEqual([[], ['deploy-help']]);
    events.stop();
    calls.stop();
  });
});
