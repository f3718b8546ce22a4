/**
 * Issue 20, "Measured": `vance eval` over 1,000 skills × 10 cases, total (target < 2 s) and per case,
 * against the same cases sent as messages through the API in the same run.
 *
 *   node --no-node-snapshot --import tsx test/bench/skill-evals.ts
 *   (BENCH_SKILLS=1000 skills × 10 cases, BENCH_ROUNDS=3 CLI runs, BENCH_API_CASES=200 cases through
 *    the API; BENCH_TINY=1 for the test's sizes)
 *
 * The eval side: the whole `vance eval <folder>` process as an author or CI runs it (api/bin/vance.js:
 * the fresh build, else the sources through tsx), median of the rounds, and `evaluate()` in this
 * process (warm) for the per-case figure. The API side: the same skills in the tenant layer of one
 * Vance (offline provider), and for a sample of the cases — spread over the skills — what checking a
 * trigger without evals takes: spawn a process, send the message over GraphQL and wait for the turn's
 * SkillVerdicts event over graphql-ws. Its verdict sentence must equal the eval's for the same case
 * (the bench fails otherwise), and its per-case time × the case count is the API's total.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { evaluate } from '../../api/src/cli/eval';
import { TURN_EVENTS_TOPIC } from '../../api/src/domain/turns/turn';
import { ADMIN_TOKEN, collect, startTestVance } from '../graphql/harness';
import { benchDatabase } from '../support/databases';
import { BenchReport, envNumber, percentile, runAsScript, type BenchOptions, type RatioRow, timeProcess } from './harness';

const API = path.resolve(__dirname, '../../api');
const { compiledIsFresh } = createRequire(__filename)(path.join(API, 'bin/compiled-cli.js')) as { compiledIsFresh: (apiDir: string) => boolean };
const TABLE = 'Skill evals: through the API ÷ vance eval, per case';
const TARGET_MS = 2_000;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa'];

interface Sizes { readonly skills: number; readonly rounds: number; readonly apiCases: number }

function sizes(tiny: boolean): Sizes {
  if (tiny) return { skills: 20, rounds: 1, apiCases: 4 };
  return { skills: envNumber('BENCH_SKILLS', 1_000), rounds: envNumber('BENCH_ROUNDS', 3), apiCases: envNumber('BENCH_API_CASES', 200) };
}

const name = (i: number) => `ev${String(i).padStart(4, '0')}`;

/** A skill with a KEYWORDS and a PATTERN trigger; its keyword pair is shared by 1 in 256 skills (confusions happen). */
const skillMd = (i: number) => [
  '---', `title: Eval bench ${i}`, `description: Eval bench skill ${i}`, 'version: "1.0.0"', 'triggers:',
  '  - type: KEYWORDS', `    keywords: [topic${i}, ${WORDS[i % 16]}${WORDS[(i >> 4) % 16]}]`, '    minMatch: 1',
  '  - type: PATTERN', `    pattern: '\\bticket-${i}\\b'`, '---', `Body of skill ${i}.`, '',
].join('\n');

/** Ten cases: five positives (each trigger, with noise), five negatives (near misses). */
function evalCases(i: number): { message: string; fires: boolean }[] {
  return [
    { message: `please help with topic${i} today`, fires: true },
    { message: `ticket-${i} is open again`, fires: true },
    { message: `the ${WORDS[i % 16]}${WORDS[(i >> 4) % 16]} report looks off`, fires: true },
    { message: `Topic${i}: what changed since yesterday?`, fires: true },
    { message: `see ticket-${i}, then close it`, fires: true },
    { message: `topic${i}x is a different thing`, fires: false },
    { message: `ticket-${i}0 belongs to someone else`, fires: false },
    { message: `the weather in ${WORDS[(i + 3) % 16]} is fine`, fires: false },
    { message: 'nothing to see here', fires: false },
    { message: `topics ${i} and tickets`, fires: false },
  ];
}

const evalsYaml = (i: number) => ['cases:', ...evalCases(i).flatMap((c) => [`  - message: ${JSON.stringify(c.message)}`, `    fires: ${c.fires}`]), ''].join('\n');

export async function runBench(options: BenchOptions = {}): Promise<readonly RatioRow[]> {
  const report = new BenchReport(options.print, options.summary);
  const size = sizes(options.tiny ?? false);
  const dir = mkdtempSync(path.join(tmpdir(), 'vance-eval-bench-'));
  let database: Awaited<ReturnType<ReturnType<typeof benchDatabase>['open']>> | undefined;
  let vance: Awaited<ReturnType<typeof startTestVance>> | undefined;
  try {
    for (let i = 0; i < size.skills; i++) {
      const folder = path.join(dir, '_vance/skills', name(i));
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'SKILL.md'), skillMd(i));
      writeFileSync(path.join(folder, 'evals.yaml'), evalsYaml(i));
    }
    // The eval side: the whole process, then evaluate() warm in this one.
    const compiled = compiledIsFresh(API);
    const cli = [path.join(API, 'bin/vance.js'), 'eval', dir];
    await timeProcess(cli); // warms tsx's transform cache (without a build) and the file cache, as any second run finds them
    const cliTimes: number[] = [];
    for (let round = 0; round < size.rounds; round++) cliTimes.push(await timeProcess(cli));
    const inProcess: number[] = [];
    let run = await evaluate([dir], null);
    for (let round = 0; round < Math.max(size.rounds, 2); round++) {
      const started = performance.now();
      run = await evaluate([dir], null);
      inProcess.push(performance.now() - started);
    }
    if (run.failed > 0 || run.cases !== size.skills * 10) throw new Error(`the bench's own evals do not pass: ${run.failed} of ${run.cases} failed`);
    const verdictOf = new Map(run.skills.flatMap((s) => s.cases.map((c) => [`${s.skill}\u0000${c.messages[0]}`, c.verdict] as const)));

    // The API side, started only now so that its server does not share the CPU with the CLI's runs:
    // the same skills in the tenant layer; a sample of the cases as turns.
    database = await benchDatabase().open();
    vance = await startTestVance(database, { VANCE_RATE_MUTATIONS_PER_TOKEN: '1000000', VANCE_RATE_MUTATIONS_PER_TENANT: '1000000', VANCE_RATE_TURNS_PER_TOKEN: '1000000', VANCE_RATE_TURNS_PER_TENANT: '1000000' }, { runTurns: true });
    const admin = await vance.vance.services.identity.authenticate(ADMIN_TOKEN);
    const project = await vance.gql('mutation { createProject(name: "evals") { id } }');
    if (project.errors) throw new Error(`createProject: ${JSON.stringify(project.errors)}`);
    for (let i = 0; i < size.skills; i++) await vance.vance.services.documents.put(admin, 'VANCE', null, `_vance/skills/${name(i)}/SKILL.md`, skillMd(i));
    // The SkillVerdicts event carries the first 500 verdicts (turn-verdicts.ts): sample among the first 400 skills.
    const pool = Math.min(size.skills, 400);
    const sample = Array.from({ length: size.apiCases }, (_, k) => {
      const skill = (k * 37) % pool;
      return { skill: name(skill), message: evalCases(skill)[k % 10]!.message };
    });
    const apiTimes: number[] = [];
    let agreed = 0;
    const ws = vance.ws();
    for (const [k, c] of sample.entries()) {
      const started = performance.now();
      const spawned = await vance.gql('mutation($n: String!) { spawnProcess(input: { project: "evals", name: $n }) { id } }', { n: `bench-${k}` });
      const id = spawned.data?.spawnProcess.id as string | undefined;
      if (!id) throw new Error(`spawnProcess: ${JSON.stringify(spawned.errors)}`);
      const stream = await vance.bus.listening(TURN_EVENTS_TOPIC, () => collect<{ turnEvents: { type: string; payload: any } }>(ws, 'subscription($id: ID!) { turnEvents(processId: $id) { type payload } }', { id }));
      const sent = await vance.gql('mutation($id: ID!, $t: String!) { sendMessage(processId: $id, text: $t) { id } }', { id, t: c.message });
      if (sent.errors) throw new Error(`sendMessage: ${JSON.stringify(sent.errors)}`);
      let reason: string | undefined;
      while (reason === undefined) {
        const e = (await stream.next(60_000)).data!.turnEvents;
        if (e.type === 'SkillVerdicts') reason = (e.payload.verdicts as { skill: string; reason: string }[]).find((v) => v.skill === c.skill)?.reason ?? '(omitted)';
        if (e.type === 'TurnFailed') throw new Error(`turn failed: ${JSON.stringify(e.payload)}`);
      }
      apiTimes.push(performance.now() - started);
      stream.stop();
      const expected = verdictOf.get(`${c.skill}\u0000${c.message}`);
      if (reason !== expected) throw new Error(`the turn and the eval disagree on ${c.skill} / "${c.message}": turn "${reason}", eval "${expected}"`);
      agreed++;
    }

    const cliMs = percentile(cliTimes, 50);
    const evalMs = percentile(inProcess, 50);
    const perCaseEvalMs = evalMs / run.cases;
    const perCaseApiMs = percentile(apiTimes, 50);
    const apiTotalMs = perCaseApiMs * run.cases;
    const ratio = perCaseApiMs / perCaseEvalMs;
    const label = `${size.skills.toLocaleString('en-US')} skills × 10 cases`;
    const out = report.print;
    out(`\n## ${TABLE} (${label}, ${database.driver})\n`);
    out('| path | total | per case | ratio |');
    out('| --- | ---: | ---: | ---: |');
    out(`| vance eval, whole process (${compiled ? 'the fresh build' : 'sources through tsx'}), median of ${size.rounds} | ${(cliMs / 1000).toFixed(2)} s | ${(cliMs / run.cases * 1000).toFixed(0)} µs | — |`);
    out(`| evaluate() in process, warm (BASELINE per case) | ${(evalMs / 1000).toFixed(2)} s | ${(perCaseEvalMs * 1000).toFixed(1)} µs | 1.00× |`);
    out(`| the same cases as messages through the API (spawn, sendMessage, SkillVerdicts), median of ${apiTimes.length} | ≈ ${(apiTotalMs / 1000).toFixed(0)} s (× ${run.cases.toLocaleString('en-US')}) | ${perCaseApiMs.toFixed(1)} ms | ${report.ratio(TABLE, label, ratio).toFixed(0)}× |`);
    out(`\n${agreed} of ${apiTimes.length} turns gave the eval's verdict sentence.`);
    if (!compiled) out('(no fresh build: `npm run build` first to measure what an installed CLI runs)');
    report.summary({
      name: `vance eval, ${label}, total (${compiled ? 'build' : 'sources through tsx'})`,
      figure: `${(cliMs / 1000).toFixed(2)} s`, baseline: `through the API ≈ ${(apiTotalMs / 1000).toFixed(0)} s`, ratio: cliMs / apiTotalMs,
      target: `< ${TARGET_MS / 1000} s`, met: cliMs < TARGET_MS,
    });
    report.summary({
      name: `vance eval, ${label}, per case`,
      figure: `${(perCaseEvalMs * 1000).toFixed(1)} µs`, baseline: `a message through the API ${perCaseApiMs.toFixed(1)} ms`, ratio: perCaseEvalMs / perCaseApiMs,
      target: '—', met: null,
    });
    return report.rows;
  } finally {
    await vance?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runAsScript(__filename, runBench);
