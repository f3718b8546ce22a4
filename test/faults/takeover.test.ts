import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { expect, it } from 'vitest';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { ADMIN_TOKEN, codeOf, collect, eventually } from '../graphql/harness';
import { describeOnPostgres, faultRig, gqlAt, PLAIN_RECIPE } from './child-vance';

// Issue 14, item 5: an instance dies (kill -9) while its turn waits on a client tool. Another
// instance, already running, takes the lane over once the dead one's lease expires — no restart —
// interrupts the turn, and answers the interrupted input before a message sent after the death
// (before: the turn stayed RUNNING until some instance restarted, and the later message was
// answered first). The dead turn's client call is closed, not redelivered.

// Long enough that a loaded machine does not miss three heartbeats of the live child (a false takeover).
const LEASE_MS = 3_000;

describeOnPostgres('takeover of a dead instance', (driver) => {
  const rig = faultRig(driver);

  it('a live instance takes over the turn of an instance killed mid-turn, in chat order, and closes its client call', async () => {
    const b = await rig.startChild({ VANCE_LANE_LEASE_MS: String(LEASE_MS) });
    const B = b.url;
    expect((await gqlAt(B, `mutation { createProject(name: "takeover") { id } }`)).errors).toBeUndefined();
    await gqlAt(B, `mutation P($c: String!) { putDocument(layer: VANCE, path: "_vance/recipes/plain.yaml", content: $c) { version } }`, { c: PLAIN_RECIPE });
    const spawned = (await gqlAt(B, `mutation { spawnProcess(input: { project: "takeover", recipe: "plain", session: "laptop" }) { id session { id } } }`)).data!.spawnProcess;
    const id = spawned.id as string;
    const sessionId = spawned.session.id as string;
    const client = createClient({ url: B.replace(/^http/, 'ws'), webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` }, retryAttempts: 0, lazy: true });
    const calls = collect<{ clientToolCalls: { callId: string; tool: string } }>(client, `subscription C($s: ID!) { clientToolCalls(sessionId: $s) { callId tool } }`, { s: sessionId });
    // The subscription is live once its registration is accepted on B.
    await eventually(async () => !(await gqlAt(B, `mutation R($s: ID!) { registerClientTools(sessionId: $s, tools: [{ name: "local_echo" }]) { tools { name } } }`, { s: sessionId })).errors);
    expect((await gqlAt(B, `mutation M($id: ID!) { sendMessage(processId: $id, text: "call local_echo {\\"text\\": \\"one\\"}") { id } }`, { id })).errors).toBeUndefined();
    const call = (await calls.next(60_000)).data!.clientToolCalls;
    expect(call.tool).toBe('local_echo');

    // A is up before B dies: what follows is a takeover by a running instance, not a restart's recovery.
    const a = await rig.startInstance(await rig.reopen(), { VANCE_LANE_LEASE_MS: String(LEASE_MS), VANCE_TURN_SWEEP_MS: '100' });
    const events = await a.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { type: string; payload: any } }>(a.ws(), `subscription E($id: ID!) { turnEvents(processId: $id) { type payload } }`, { id }));
    const turnsOf = async () => ((await a.gql(`query T($id: ID!) { turns(processId: $id) { status } }`, { id })).data!.turns as { status: string }[]).map((t) => t.status);
    expect(await turnsOf()).toEqual(['RUNNING']); // B's lease is valid: A leaves it alone

    const killedAt = Date.now();
    b.child.kill('SIGKILL');
    await new Promise((resolve) => b.child.once('exit', resolve));
    void client.dispose();
    expect((await a.gql(`mutation M($id: ID!) { sendMessage(processId: $id, text: "sent after the crash") { id } }`, { id })).errors).toBeUndefined();

    // The takeover, seen from outside: polled, not timed by an assertion (the bench measures it).
    await eventually(async () => (await turnsOf())[0] === 'INTERRUPTED');
    console.log(`takeover ${Date.now() - killedAt} ms after kill -9 (lease ${LEASE_MS} ms)`);
    const seen: string[] = [];
    for (;;) {
      const e = (await events.next(60_000)).data!.turnEvents;
      seen.push(e.type === 'TurnFailed' ? `TurnFailed:${e.payload.code}` : e.type);
      if (e.type === 'TurnFinished') break;
    }
    // B's turn (stored events, replayed to the new subscriber), ended by A, then one turn that answers both.
    expect(seen.indexOf('TurnFailed:INTERRUPTED'), seen.join(' ')).toBeGreaterThan(seen.indexOf('ToolCallStarted'));
    expect(seen.filter((t) => t === 'TurnStarted'), seen.join(' ')).toHaveLength(2);
    expect(seen.indexOf('TurnStarted', seen.indexOf('TurnFailed:INTERRUPTED')), seen.join(' ')).toBeGreaterThan(0);
    expect(await turnsOf()).toEqual(['INTERRUPTED', 'FINISHED']);
    const log = (await a.gql(`query L($id: ID!) { messages(processId: $id) { role content } }`, { id })).data!.messages as { role: string; content: string }[];
    // The interrupted input first, then the later message, each once, answered by one turn.
    expect(log.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['call local_echo {"text": "one"}', 'sent after the crash']);
    expect(log.filter((m) => m.role === 'assistant').at(-1)!.content).toContain('You said: sent after the crash');
    expect((await a.gql(`query P($id: ID!) { process(id: $id) { pending { id } } }`, { id })).data!.process.pending).toEqual([]);
    // The dead turn's client call is closed: its answer is refused, so the client does not act twice.
    const late = await a.gql(`mutation S($s: ID!, $c: ID!) { submitClientToolResult(sessionId: $s, callId: $c, result: "too late") }`, { s: sessionId, c: call.callId });
    expect(codeOf(late)).toBe('CONFLICT');
    expect(late.errors![0]!.extensions!.domainCode).toBe('CLIENT_TOOL_CALL_CLOSED');
    events.stop();
  });
});
