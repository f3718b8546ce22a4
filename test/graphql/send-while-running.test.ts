import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../api/src/persistence';
import { CLIENT_TOOL_CALLS_TOPIC } from '../../api/src/domain/client-tools/client-tool-service';
import { PROCESS_EVENTS_TOPIC } from '../../api/src/domain/processes/process-event';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { testDatabases } from '../support/databases';
import { collect, startTestVance, type TestVance } from './harness';

// Issue 14, item 5: sendMessage returns once the message is stored and its turn requested — not
// behind the running turn of its process (before: 19.98 s while the turn waited on a client tool).
// The client tool here never answers on its own (a 10-minute timeout), so a sendMessage that waited
// on the lane would not return before the test's own timeout. A message that fires an auto-trigger
// waited so until the triggers ran as the pre-turn hook of the turn that takes the message.

type SteerEvent = { type: string; skill?: string; oneShot?: boolean; code?: string; reason?: string };
const STEERING = `subscription P($id: ID!) { processEvents(processId: $id) { type
  ... on SkillActivatedEvent { skill oneShot reason } ... on SkillClearedEvent { skill reason } ... on SkillRefusedEvent { skill code reason } } }`;

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
    // PROJECT skills with a keyword trigger: one that activates, one whose `activate:` step fails (a refusal).
    await t.gql(`mutation P($c: String!) { putDocument(layer: PROJECT, project: "busy", path: "_vance/skills/deploy-help/SKILL.md", content: $c) { version } }`, {
      c: '---\nname: deploy-help\ndescription: Helps with deploys\ntriggers:\n  - type: KEYWORDS\n    keywords: [deploy]\n---\nSay how to deploy.\n',
    });
    const guarded = await t.gql(`mutation P($c: String!) { putDocument(layer: PROJECT, project: "busy", path: "_vance/skills/deploy-guard/SKILL.md", content: $c, force: true) { version } }`, {
      c: '---\nname: deploy-guard\ndescription: Guards deploys\ntriggers:\n  - type: KEYWORDS\n    keywords: [deploy]\nactivate:\n  - guard bogus\n---\nCheck the deploy.\n',
    });
    expect(guarded.errors).toBeUndefined();
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

  it('a message that fires a trigger answers at once too, and its skill is on for exactly the turn that answers it', async () => {
    const spawned = (await t.gql(`mutation { spawnProcess(input: { project: "busy", recipe: "plain", session: "desk" }) { id session { id } } }`)).data!.spawnProcess;
    const id = spawned.id as string;
    const s = spawned.session.id as string;
    const calls = await t.bus.listening(CLIENT_TOOL_CALLS_TOPIC, () => collect<{ clientToolCalls: { callId: string } }>(t.ws(), `subscription C($s: ID!) { clientToolCalls(sessionId: $s) { callId } }`, { s }));
    await t.gql(`mutation R($s: ID!) { registerClientTools(sessionId: $s, tools: [{ name: "local_echo" }]) { tools { name } } }`, { s });
    const events = await t.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { type: string; payload: any } }>(t.ws(), `subscription E($id: ID!) { turnEvents(processId: $id) { type payload } }`, { id }));
    const steering = await t.bus.listening(PROCESS_EVENTS_TOPIC, () => collect<{ processEvents: SteerEvent }>(t.ws(), STEERING, { id }));
    await t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "call local_echo {\\"text\\": \\"wait\\"}") { id } }`, { id });
    const call = (await calls.next(60_000)).data!.clientToolCalls; // the turn now waits on the client
    const turns = async () => ((await t.gql(`query T($id: ID!) { turns(processId: $id) { status } }`, { id })).data!.turns as { status: string }[]).map((x) => x.status);
    const turnEnds = (async () => {
      for (;;) if (['TurnFinished', 'TurnFailed'].includes((await events.next(600_000)).data!.turnEvents.type)) return 'the running turn ended';
    })();

    // Before: this waited on the lane behind the turn, which ends only once the client tool is answered below.
    const sent = t.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "how do I deploy this?") { id content } }`, { id });
    expect(await Promise.race([sent.then(() => 'sendMessage answered'), turnEnds])).toBe('sendMessage answered');
    expect((await sent).errors).toBeUndefined();
    expect(await turns()).toEqual(['RUNNING']);
    // Nothing is activated beside the running turn: its clean-up cannot clear what is not there yet.
    const meanwhile = (await t.gql(`query P($id: ID!) { process(id: $id) { activeSkills { name } pending { content } } }`, { id })).data!.process;
    expect(meanwhile).toEqual({ activeSkills: [], pending: [{ content: 'how do I deploy this?' }] });
    // The preview of the next turn shows what its pre-turn hook will activate, and writes nothing.
    const preview = (await t.gql(`query V($id: ID!) { composeTurnPreview(processId: $id) { sections { text } } }`, { id })).data!.composeTurnPreview;
    expect(preview.sections.map((x: { text: string }) => x.text).join('\n')).toContain('Say how to deploy.');

    expect((await t.gql(`mutation S($s: ID!, $c: ID!) { submitClientToolResult(sessionId: $s, callId: $c, result: "done") }`, { s, c: call.callId })).data?.submitClientToolResult).toBe(true);
    expect(await turnEnds).toBe('the running turn ended');
    const second: { type: string; payload: any }[] = [];
    while (second.at(-1)?.type !== 'TurnFinished') second.push((await events.next(60_000)).data!.turnEvents);
    expect(second.map((e) => e.type)).not.toContain('TurnFailed');
    const verdicts = second.find((e) => e.type === 'SkillVerdicts')!.payload;
    expect(verdicts.skills).toEqual([expect.objectContaining({ skill: 'deploy-help', oneShot: true, composed: true, reason: expect.stringContaining('deploy') })]);
    const prompt = second.find((e) => e.type === 'PromptComposed')!.payload;
    expect(prompt.sections.map((x: { text: string }) => x.text).join('\n')).toContain('Say how to deploy.');
    expect(await turns()).toEqual(['FINISHED', 'FINISHED']);

    // The same steering events as when sendMessage activated it: on, refused, and cleared after the turn that answered.
    const seen: SteerEvent[] = [];
    while (!seen.some((e) => e.type === 'SKILL_CLEARED')) {
      const e = (await steering.next(60_000)).data!.processEvents;
      if (e.type.startsWith('SKILL_')) seen.push(e);
    }
    expect(seen).toEqual([
      { type: 'SKILL_REFUSED', skill: 'deploy-guard', code: 'ACTIVATION_COMMAND_FAILED', reason: expect.stringContaining("activate command 'guard bogus' failed") },
      { type: 'SKILL_ACTIVATED', skill: 'deploy-help', oneShot: true, reason: expect.stringContaining('deploy') },
      { type: 'SKILL_CLEARED', skill: 'deploy-help', reason: 'One-shot: cleared after the turn.' },
    ]);
    expect((await t.gql(`query P($id: ID!) { process(id: $id) { activeSkills { name } } }`, { id })).data!.process.activeSkills).toEqual([]);
    steering.stop();
    events.stop();
    calls.stop();
  });
});
