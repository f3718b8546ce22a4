/**
 * Abuse (issue 13 "Measured"): for each attack an ordinary account tried, the attack's answer time,
 * and a trivial query of ANOTHER tenant during it, as p50/p99 ÷ the same query's p50/p99 measured
 * without it in the same run; the event-loop delay (monitorEventLoopDelay) max during the attack; and
 * the server's RSS after it (after a full GC) ÷ its RSS before. Targets of the issue: every latency
 * ratio ≤ 2, event-loop max < 100 ms, RSS back within 10 %.
 *
 *   node --no-node-snapshot --import tsx test/bench/abuse.ts      (BENCH_TINY=1 for the test's sizes,
 *                                                                BENCH_ONLY=<text>[|<text>…] for some attacks)
 *
 * The server runs in this process (startVance over PGlite, or PostgreSQL with TEST_DATABASE_URL), so
 * the event-loop delay measured is the server's own. The probe is `{ me { login } }` of tenant
 * globex's user, sent one at a time over HTTP for as long as the attack is unanswered. The attacks
 * are sent from another process (support/attack-process.ts, support/flood-process.ts), as from
 * another machine: building and posting a 5 MB body is the attacker's work, not the server's.
 * Before the baseline the probe runs for a few seconds, so that the heap has grown to its working
 * size and the RSS ratios measure the attacks, not the warm-up. Numbers are printed, never asserted.
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pino from 'pino';
import { startVance } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import { OfflineProvider } from '../../api/src/llm';
import { TURN_EVENTS_TOPIC, type TurnEventEnvelope } from '../../api/src/domain/turns/turn';
import { benchDatabase } from '../support/databases';
import { probeDuring } from '../graphql/harness';
import { connectFlood } from '../support/flood-process';
import { startAttacker } from '../support/attack-process';
import { BenchReport, collectGarbage, percentile, runAsScript, type BenchOptions, type RatioRow } from './harness';

const TOKEN = 'bench-admin-token-0123456789';
const ATTACK_TIMEOUT_MS = 60_000;
/**
 * A short attack is sent again until this many probes overlapped it (tiny: 3), at most MAX_RUNS times
 * (tiny: 2): a p99 of 30 probes was their maximum, and one preempted probe moved it by 2×.
 */
const MIN_PROBES = 300;
const MAX_RUNS = 100;
/** Flood processes connected beforehand: one per run of the flood. */
const FLOODS = 5;
/** How long the RSS reading after an attack waits for the server to settle, at most. */
const RSS_SETTLE_MS = 8_000;
interface Gql { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] }

const f = (n: number, d = 2): string => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const fill = (head: string, line: (i: number) => string, size: number, tail = ''): string => {
  let text = head;
  for (let i = 0; text.length < size; i++) text += line(i);
  return text + tail;
};

interface Attack {
  readonly name: string;
  /** Sends the attack; resolves with a short outcome once it is answered (or, for a turn, finished). */
  run(): Promise<string>;
  /** Runs at most (1: its second run would be another case, e.g. a warm cache); default MAX_RUNS. */
  readonly maxRuns?: number;
}

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const tiny = options.tiny ?? false;
  const report = new BenchReport(options.print, options.summary);
  const print = report.print;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vance-bench-abuse-'));
  const database = await benchDatabase().open();
  const config = loadConfig({ PORT: '0', VANCE_ADMIN_TOKEN: TOKEN, VANCE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(tiny ? { VANCE_SCRIPT_TIMEOUT_MS: '300' } : {}) });
  const vance = await startVance({ config, logger: pino({ level: 'silent' }), database, runTurns: true, modelProvider: new OfflineProvider({ chunkDelayMs: 0 }) });
  // The attack and flood processes end with the bench, also when an attack throws.
  const clients: { stop(): void }[] = [];
  try {
    const gql = async (query: string, variables: Record<string, unknown> = {}, token: string | null = TOKEN): Promise<Gql> => {
      const res = await fetch(vance.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as Gql;
    };
    const must = async (query: string, variables: Record<string, unknown> = {}, token: string | null = TOKEN): Promise<any> => {
      const r = await gql(query, variables, token);
      if (r.errors) throw new Error(`${query.slice(0, 50)}: ${JSON.stringify(r.errors)}`);
      return r.data;
    };
    await must('mutation { createProject(name: "lab") { id } }');
    const mallory = (await must('mutation { createUser(login: "mallory") { token } }')).createUser.token as string;
    await must('mutation { addProjectMember(project: "lab", login: "mallory", role: ADMIN) { role } }');
    await must('mutation { createTenant(name: "globex") { id } }');
    const olga = (await must('mutation { createUser(login: "olga", tenant: "globex") { token } }')).createUser.token as string;
    const probe = async (): Promise<number> => {
      const sent = performance.now();
      const r = await gql('{ me { login } }', {}, olga);
      if (r.data?.me?.login !== 'olga') throw new Error(`probe failed: ${JSON.stringify(r)}`);
      return performance.now() - sent;
    };
    const outcome = (r: Gql, ok: (data: any) => string): string => (r.errors ? String(r.errors[0]?.extensions?.code ?? r.errors[0]?.message) : ok(r.data));
    // Every attack request is sent from another process, as from another machine (see startAttacker).
    const attacker = await startAttacker(vance.url);
    clients.push(attacker);
    const PUT = 'mutation P($path: String!, $content: String!, $force: Boolean) { putDocument(layer: PROJECT, project: "lab", path: $path, content: $content, force: $force) { version } }';
    const VALIDATE = 'query V($path: String!, $content: String!) { validateDocument(path: $path, content: $content) { severity } }';
    const SEND = 'mutation M($id: ID!, $text: String!) { sendMessage(processId: $id, text: $text) { id } }';

    // A turn of mallory's own process, timed to its TurnFinished/TurnFailed on this instance's bus.
    const spawn = async (recipe: string): Promise<string> =>
      (await must(`mutation { spawnProcess(input: { project: "lab", recipe: "${recipe}" }) { id } }`, {}, mallory)).spawnProcess.id as string;
    const prepareTurn = async (processId: string, text: string): Promise<() => Promise<string>> => {
      const message = await attacker.prepare(SEND, { id: processId, text }, mallory);
      return async () => {
        const ended = new Promise<string>((resolve) => {
          const off = vance.services.bus.subscribe<TurnEventEnvelope>(TURN_EVENTS_TOPIC, (e) => {
            if (e.processId === processId && (e.type === 'TurnFinished' || e.type === 'TurnFailed')) {
              off();
              resolve(e.type);
            }
          });
        });
        const sent = await message.send();
        if (sent.errors) return outcome(sent, () => '');
        return ended;
      };
    };

    // Fixtures: a quick recipe; a skill with a backtracking trigger; a skill whose script loops on a binding.
    await must('mutation P($c: String!) { putDocument(layer: PROJECT, project: "lab", path: "_vance/recipes/quick.yaml", content: $c) { version } }',
      { c: 'description: Quick worker\nengine: ford\nparams:\n  validation: false\n  maxIterations: 3\n' }, mallory);
    await must('mutation P($c: String!) { putDocument(layer: PROJECT, project: "lab", path: "_vance/skills/redos/SKILL.md", content: $c) { version } }',
      { c: "---\ntitle: Redos\ndescription: Fires on a run of a ending in b\nversion: 1.0.0\ntriggers:\n  - type: PATTERN\n    pattern: '(a{1,5})+b'\n  - type: PATTERN\n    pattern: '.*a.*x'\n---\nOn.\n" }, mallory);
    await must('mutation P($c: String!) { putDocument(layer: PROJECT, project: "lab", path: "_vance/skills/loop/SKILL.md", content: $c) { version } }',
      { c: '---\ntitle: Loop\ndescription: Logs forever\nversion: "1.0.0"\nscripts:\n  - name: spin\n    target: BRAIN\n    file: scripts/spin.js\n    description: Logs in a loop.\n---\nLoop.\n' }, mallory);
    await must('mutation P($c: String!) { putDocument(layer: PROJECT, project: "lab", path: "_vance/skills/loop/scripts/spin.js", content: $c) { version } }',
      { c: "for (;;) vance.log('info', 'x')" }, mallory);
    const redosProcess = await spawn('quick');
    const loopProcess = await spawn('quick');
    await must('mutation A($id: ID!) { activateSkill(processId: $id, name: "loop") { outcome } }', { id: loopProcess }, mallory);
    const argsProcess = await spawn('quick');

    const scale = tiny ? 0.05 : 1;
    const floods = tiny ? 1 : FLOODS;
    const minProbes = tiny ? 3 : MIN_PROBES;
    const maxRuns = tiny ? 2 : MAX_RUNS;
    // Payloads are built before any timing: the attacker's own work is not the server's.
    const manySkills = fill('engine: ford\ndescription: x\nallowedSkills:\n', (i) => `  - skill-${i}\n`, 549_000 * scale);
    const flowMap = fill('engine: ford\ndescription: x\nparams: {', (i) => `k${i}: ${i}, `, 1_000_000 * scale, 'z: 0}\n');
    const manyTriggers = fill('---\ntitle: Many\ndescription: x\nversion: 1.0.0\ntriggers:\n', (i) => `  - type: KEYWORDS\n    keywords: [w${i}]\n`, 808_000 * scale, '---\nBody\n');
    const forcedRecipe = fill('engine: ford\nallowedSkills:\n', (i) => `  - skill-${i}\n`, 549_000 * scale);
    const bigArgument = `call doc_read {"path": "${'x'.repeat(tiny ? 100_000 : 5_000_000)}"}`;
    const longMessage = 'a'.repeat(tiny ? 300 : 10_000);
    const aliases = Array.from({ length: tiny ? 300 : 30_000 }, (_, i) => `a${i}: __typename`).join(' ');
    const send = async (query: string, variables: Record<string, unknown>, token: string | null, ok: (data: any) => string): Promise<() => Promise<string>> => {
      const request = await attacker.prepare(query, variables, token);
      return async () => outcome(await request.send(), ok);
    };
    const validated = (d: any) => `${d.validateDocument.length} diagnostics`;
    const ordinaryTurn = await prepareTurn(redosProcess, 'hello');
    const exponentialTurn = await prepareTurn(redosProcess, 'a'.repeat(34));
    const polynomialTurn = await prepareTurn(redosProcess, longMessage);
    const aliasQuery = await send(`{ ${aliases} }`, {}, null, () => 'answered');
    const validateMany = await send(VALIDATE, { path: '_vance/recipes/many.yaml', content: manySkills }, mallory, validated);
    const validateFlow = await send(VALIDATE, { path: '_vance/recipes/flow.yaml', content: flowMap }, mallory, validated);
    const putTriggers = await send(PUT, { path: '_vance/skills/many/SKILL.md', content: manyTriggers }, mallory, (d) => `version ${d.putDocument.version}`);
    const putForced = await attacker.prepare(PUT, { path: '_vance/recipes/forced.yaml', content: forcedRecipe, force: true }, mallory);
    const listRecipes = await send('{ recipes(project: "lab") { count } }', {}, mallory, (d) => `${d.recipes.count} recipes`);
    const argumentTurn = await prepareTurn(argsProcess, bigArgument);
    const loopTurn = await prepareTurn(loopProcess, 'call skill_loop__spin {}');
    const attacks: Attack[] = [
      // What the probes alone cost over the time of the longest attacks (RSS: their own garbage too).
      { name: `control: no attack, ${tiny ? 0.5 : 5} s of probes`, maxRuns: 1, run: () => new Promise((resolve) => setTimeout(() => resolve('slept'), tiny ? 500 : 5_000)) },
      // What one more busy process costs this machine (2 cores shared by server, PGlite's thread,
      // probe and attacker): the floor under every short attack's ratio.
      { name: 'control: another process computes 5 ms (no request)', run: async () => { await attacker.spin(5); return 'computed'; } },
      { name: 'control: another process computes 75 ms (no request)', run: async () => { await attacker.spin(75); return 'computed'; } },
      { name: 'control: an ordinary turn ("hello")', run: ordinaryTurn },
      { name: `trigger \`(a{1,5})+b\` on ${34} × a (a turn)`, run: exponentialTurn },
      { name: `trigger \`.*a.*x\` on ${tiny ? 300 : 10_000} chars (a turn)`, run: polynomialTurn },
      { name: `anonymous query of ${tiny ? 300 : '30,000'} aliases`, run: aliasQuery },
      { name: `validateDocument, ${tiny ? '4,000' : '80,000'}-entry allowedSkills`, run: validateMany },
      { name: 'validateDocument, 1 MB flow map', run: validateFlow },
      { name: `putDocument, ${tiny ? '1,000' : '20,000'}-trigger skill`, maxRuns: 1, run: putTriggers },
      { name: 'forced 549 KB recipe, then `recipes` (first load)', maxRuns: 1, run: async () => {
        const forced = await putForced.send();
        if (forced.errors) return outcome(forced, () => '');
        return listRecipes();
      } },
      { name: `tool-call argument of ${tiny ? '0.1' : '5'} MB (a turn)`, run: argumentTurn },
      { name: 'script calling vance.log in a loop (a turn)', run: loopTurn },
      { name: `${tiny ? 500 : '5,000'} subscribe messages at once on one socket (another process)`, maxRuns: floods, run: async () => {
        const { refusals, closed } = await flooders[floodsUsed++]!.flood();
        return `${Object.values(refusals).reduce((a, b) => a + b, 0)} refusals read${closed ? ', socket cut off' : ''}`;
      } },
    ];

    // The flood comes from another process, as from another machine (its own sending is not the
    // server's work); it connects now and floods when its attack runs.
    const flooders = await Promise.all(Array.from({ length: floods }, () => connectFlood(vance.url.replace(/^http/, 'ws'), mallory, tiny ? 500 : 5_000, 'subscription { documentChanged(project: "lab") { path } }')));
    clients.push(...flooders);
    let floodsUsed = 0;

    // Baseline: the probe alone.
    const warmUntil = performance.now() + (tiny ? 200 : 5_000);
    while (performance.now() < warmUntil) await probe();
    const baseline: number[] = [];
    for (let i = 0; i < (tiny ? 30 : 300); i++) baseline.push(await probe());
    const base50 = percentile(baseline, 50);
    const base99 = percentile(baseline, 99);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    await new Promise((r) => setTimeout(r, 200));
    const idleLoopMax = loop.max / 1e6;

    print('');
    print(`## Abuse: another tenant's trivial query during each attack, ÷ the same query alone (baseline p50 ${f(base50)} ms, p99 ${f(base99)} ms; event loop max idle ${f(idleLoopMax, 1)} ms)`);
    print('');
    print('| attack | outcome | runs | answer p50 (ms) | probes | p50 ratio | p99 ratio | event loop max (ms) | RSS after ÷ before | read after (s) |');
    print('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    // BENCH_ONLY=text runs only the attacks whose name contains it (to look at one case); `a|b` for several.
    const only = process.env.BENCH_ONLY?.split('|');
    for (const attack of attacks.filter((a) => !only || only.some((text) => a.name.includes(text)))) {
      collectGarbage();
      const rssBefore = process.memoryUsage().rss;
      loop.reset();
      // A short attack overlaps one or two probes, too few for a percentile: it is sent again (one at
      // a time) until minProbes probes overlapped it, at most maxRuns times.
      const during: number[] = [];
      const answers: number[] = [];
      let result = '';
      for (let run = 0; run < Math.min(attack.maxRuns ?? maxRuns, maxRuns) && (run === 0 || during.length < minProbes); run++) {
        // A bench must end: an attack that does not answer within ATTACK_TIMEOUT_MS is reported as such.
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<string>((resolve) => { timer = setTimeout(() => resolve(`no answer in ${ATTACK_TIMEOUT_MS} ms`), ATTACK_TIMEOUT_MS); });
        const attempt = () => Promise.race([attack.run(), timedOut]).catch((e: unknown) => `threw: ${(e as Error).message.slice(0, 60)}`).finally(() => clearTimeout(timer));
        const probed = await probeDuring(attempt, async () => void (await probe()));
        during.push(...probed.probeMs);
        answers.push(probed.abuseMs);
        result = probed.result;
        if (result.startsWith('no answer') || result.startsWith('threw')) break;
      }
      const abuseMs = percentile(answers, 50);
      const loopMax = loop.max / 1e6;
      // RSS once the server has settled: idle pool threads end after their idle timeout (5 s), so
      // read it until it is back within 10 % or RSS_SETTLE_MS passed, and say when.
      const settleStart = performance.now();
      let rss = Infinity;
      for (;;) {
        collectGarbage();
        await new Promise((r) => setTimeout(r, 100));
        collectGarbage();
        rss = process.memoryUsage().rss / rssBefore;
        if (rss <= 1.1 || performance.now() - settleStart >= (tiny ? 0 : RSS_SETTLE_MS)) break;
        await new Promise((r) => setTimeout(r, 400));
      }
      const settledS = (performance.now() - settleStart) / 1000;
      const r50 = report.ratio('Abuse: probe p50 ÷ baseline p50', attack.name, percentile(during, 50) / base50);
      const r99 = report.ratio('Abuse: probe p99 ÷ baseline p99', attack.name, percentile(during, 99) / base99);
      report.ratio('Abuse: RSS after ÷ before', attack.name, rss);
      print(`| ${attack.name} | ${result} | ${answers.length} | ${f(abuseMs, 0)} | ${during.length} | ${f(r50)} | ${f(r99)} | ${f(loopMax, 1)} | ${f(rss)} | ${f(settledS, 1)} |`);
    }
    loop.disable();
    print('');
    return report.rows;
  } finally {
    for (const client of clients) client.stop();
    await vance.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runAsScript(__filename, runBench);
