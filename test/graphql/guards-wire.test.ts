import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { FakeLlmServer, openai, sse, type RecordedRequest } from '../llm/fake-llm-server';
import { collect, startTestVance, type TestVance } from './harness';

/**
 * Guards against a real provider path (issue 16, "done when"): the turn and the guard's judge go over
 * the wire to a local server speaking OpenAI's chat-completions protocol (fake-llm-server.ts), which
 * answers by script — the turn's reply, the judge's verdict, a reply cut at the length limit. What the
 * model received, what the guard read, and what it queued are all checked.
 */
const SPAWN = `mutation S($input: SpawnProcessInput!) { spawnProcess(input: $input) { id } }`;
const SEND = `mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }`;

const RECIPE = [
  'description: A judged worker',
  'engine: ford',
  'params:',
  '  validation: false',
  'guard:',
  '  - script: _vance/guards/llm-judge.js',
  '    params:',
  '      judge: "Was the build run?"',
  '      prompt: "Did you run the build?"',
  '    maxRounds: 1',
  '  - scriptBody: |',
  "      const passes = (vance.guard.session.get('passes') || 0) + 1;",
  "      vance.guard.session.set('passes', passes);",
  "      vance.log('info', ['natural', vance.guard.naturalStop, 'round', vance.guard.round, 'fired', vance.guard.fired, 'passes', passes].map(String).join(' '));",
  '',
].join('\n');

interface Ev { type: string; payload: any }

describe.each(testDatabases())('guards over a provider wire ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  const model = new FakeLlmServer();
  /** What the next turn's reply ends with: `stop` (the model is done) or `length` (cut at the limit). */
  let finish: 'stop' | 'length' = 'stop';
  let verdicts: boolean[] = [];

  const isJudge = (req: RecordedRequest) => JSON.stringify(req.body.messages ?? []).includes('Evaluate the guard condition');

  beforeAll(async () => {
    await model.start();
    model.handler = (req, res) => {
      const s = sse(res);
      if (isJudge(req)) {
        const fire = verdicts.shift() ?? false;
        s.data(openai.text(JSON.stringify({ fire, reason: fire ? 'no build output in the reply' : 'fine' }), true));
        s.data(openai.finish('stop'));
      } else {
        s.data(openai.text('I changed the parser.', true));
        s.data(openai.finish(finish));
      }
      s.data(openai.usage(100, 5));
      s.data('[DONE]');
      s.end();
    };
    db = await driver.open();
    t = await startTestVance(db);
    await t.gql('mutation { createProject(name: "lab") { id } }');
    for (const [k, v] of [['ai.openai.apiKey', 'sk-test'], ['ai.openai.baseUrl', `${model.baseUrl}/v1`], ['ai.default.provider', 'openai'], ['ai.default.model', 'gpt-test']] as const) {
      expect((await t.gql('mutation S($k: String!, $v: String!) { putSetting(key: $k, value: $v) { key } }', { k, v })).errors).toBeUndefined();
    }
    const put = await t.gql('mutation P($c: String!) { putDocument(layer: PROJECT, project: "lab", path: "_vance/recipes/judged.yaml", content: $c) { version } }', { c: RECIPE });
    expect(put.errors).toBeUndefined();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await db?.close();
    await model.stop();
  });

  const lastEvent = new Map<string, string>();

  /** Sends `text` and reads the process's events (after those read before) until `turns` turns finished. */
  async function run(id: string, text: string, turns: number): Promise<Ev[]> {
    const stream = collect<{ turnEvents: Ev & { id: string } }>(t.ws(), `subscription E($id: ID!, $after: ID) { turnEvents(processId: $id, afterEventId: $after) { id type payload } }`, { id, after: lastEvent.get(id) ?? null });
    const seen: Ev[] = [];
    try {
      expect((await t.gql(SEND, { id, text })).errors).toBeUndefined();
      while (seen.filter((e) => e.type === 'TurnFinished').length < turns) {
        const e = (await stream.next()).data!.turnEvents;
        lastEvent.set(id, e.id);
        seen.push(e);
      }
    } finally {
      stream.stop();
    }
    return seen;
  }

  it('the judge fires over the wire, the follow-up reaches the model with its marker, and at the cap the judge still runs but queues nothing', async () => {
    const id = (await t.gql(SPAWN, { input: { project: 'lab', recipe: 'judged', name: 'judged' } })).data!.spawnProcess.id as string;
    const before = model.requests.length;
    verdicts = [true, true];
    const events = await run(id, 'fix the parser', 2);
    const sent = model.requests.slice(before);
    expect(sent.map((r) => (isJudge(r) ? 'judge' : 'turn'))).toEqual(['turn', 'judge', 'turn', 'judge']);
    // The judge got the question, the user's task and the reply.
    const judged = JSON.stringify(sent[1]!.body.messages);
    for (const part of ['Was the build run?', 'fix the parser', 'I changed the parser.']) expect(judged).toContain(part);
    // The second turn's request ends with the guard's follow-up, marked with its label.
    const messages = sent[2]!.body.messages as { role: string; content: string }[];
    expect(messages.at(-1)).toEqual({ role: 'user', content: '[_vance/guards/llm-judge.js] Did you run the build?' });
    const ran = events.filter((e) => e.type === 'GuardRan' && e.payload.guard === '_vance/guards/llm-judge.js').map((e) => e.payload);
    expect(ran.map((r) => [r.continued ?? false, Boolean(r.capped)])).toEqual([[true, false], [false, true]]);
    const logs = events.filter((e) => e.type === 'ScriptLog' && e.payload.source.startsWith('guard inline')).map((e) => e.payload.message);
    expect(logs).toEqual(['natural true round 0 fired _vance/guards/llm-judge.js passes 1', 'natural true round 0 fired null passes 2']);
    expect(events.filter((e) => e.type === 'TurnFinished').map((e) => e.payload.guardFollowUps)).toEqual([1, 0]);
  });

  it('naturalStop is false when the reply was cut at the length limit; the session scratch goes on across user messages', async () => {
    const id = (await t.gql(SPAWN, { input: { project: 'lab', recipe: 'judged', name: 'cut' } })).data!.spawnProcess.id as string;
    verdicts = [false];
    finish = 'length';
    try {
      const first = await run(id, 'write a long essay', 1);
      expect(first.filter((e) => e.type === 'ScriptLog' && e.payload.source.startsWith('guard inline')).map((e) => e.payload.message))
        .toEqual(['natural false round 0 fired null passes 1']);
    } finally {
      finish = 'stop';
    }
    verdicts = [false];
    const second = await run(id, 'and now a short one', 1);
    expect(second.filter((e) => e.type === 'ScriptLog' && e.payload.source.startsWith('guard inline')).map((e) => e.payload.message))
      .toEqual(['natural true round 0 fired null passes 2']);
    const scratch = (await t.gql(`query P($id: ID!) { process(id: $id) { guardScratch } }`, { id })).data!.process.guardScratch;
    expect(scratch).toEqual({ 'recipe:1': { loop: {}, session: { passes: 2 } } });
  });
});
