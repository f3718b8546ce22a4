/**
 * Issue 19, "Measured": `skills/list` over MCP for 1,000 skills against the same listing over GraphQL
 * (`skills(surface: MODEL)`), on one Vance in the same run; target ≤ 1.5×.
 *
 *   node --no-node-snapshot --import tsx test/bench/mcp-skills.ts
 *   (BENCH_SKILLS=1000 skills, BENCH_ROUNDS=9 rounds of BENCH_CALLS=10 calls per path; BENCH_TINY=1 for the test's sizes)
 *
 * The skills are in the tenant (VANCE) layer, each with one reference file, beside the bundled ones.
 * Both paths go over loopback HTTP with the admin's token: the MCP one with the SDK's own client
 * (StreamableHTTPClientTransport, one session, every page followed), the GraphQL one with fetch
 * asking for the same information an MCP entry carries (GRAPHQL_LIST; an MCP entry is a complete
 * manifest — every frontmatter field, every file with its digest — about 0.9 KB per skill here). A
 * thinner GraphQL listing (names and descriptions) is shown beside it for information. The paths run in
 * interleaved rounds after a warm-up call each, and the ratio is the median over rounds of MCP ÷
 * GraphQL time *of the same round*, so the machine's load falls on both. The first MCP call (which
 * loads the SDK into the server, issue 18) is shown for information.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { startVance } from '../../api/src/app';
import { loadConfig } from '../../api/src/config';
import { benchDatabase } from '../support/databases';
import { connectSkills, mcpUrl } from '../mcp/mcp-client';
import { BenchReport, envNumber, percentile, runAsScript, type BenchOptions, type RatioRow } from './harness';

const TOKEN = 'bench-admin-token-0123456789';
const TABLE = 'skills/list: MCP ÷ GraphQL';
const TARGET = 1.5;
/**
 * The same listing: what an MCP entry says of a skill (its frontmatter fields, its layer, what it
 * shadows, its version, its files), asked of GraphQL. The bench skills' frontmatter is title,
 * description, version, tags, triggers and referenceDocs.
 */
const GRAPHQL_LIST = `{ skills(surface: MODEL) { name path source shadowed documentVersion title description version tags
  triggers { type pattern keywords } referenceDocs { title file loadMode present } scripts { name file } } }`;
/** For information: the names and descriptions only (a picker's listing; no files, no fields beyond the two). */
const GRAPHQL_THIN = '{ skills(surface: MODEL) { name description version source shadowed } }';

interface Sizes { readonly skills: number; readonly rounds: number; readonly calls: number }

function sizes(tiny: boolean): Sizes {
  if (tiny) return { skills: 20, rounds: 2, calls: 2 };
  return { skills: envNumber('BENCH_SKILLS', 1_000), rounds: envNumber('BENCH_ROUNDS', 9), calls: envNumber('BENCH_CALLS', 10) };
}

const skillMd = (i: number) => [
  '---', `title: Bench skill ${i}`, `description: Bench skill number ${i}, which does one small thing well.`, 'version: "1.0.0"',
  'tags: [bench]', 'triggers:', '  - type: KEYWORDS', `    keywords: [bench${i}, listing]`,
  'referenceDocs:', '  - title: Notes', '    file: references/notes.md', '    loadMode: on_demand',
  '---', `Do the small thing number ${i}.`, '',
].join('\n');

export async function runBench(options: BenchOptions = {}): Promise<RatioRow[]> {
  const report = new BenchReport(options.print, options.summary);
  const size = sizes(options.tiny ?? false);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'vance-bench-mcp-'));
  const database = await benchDatabase().open();
  const config = loadConfig({ PORT: '0', VANCE_ADMIN_TOKEN: TOKEN, VANCE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', VANCE_RATE_MUTATIONS_PER_TOKEN: '1000000', VANCE_RATE_MUTATIONS_PER_TENANT: '1000000' });
  const vance = await startVance({ config, logger: pino({ level: 'silent' }), database });
  try {
    const admin = await vance.services.identity.authenticate(TOKEN);
    for (let i = 0; i < size.skills; i++) {
      const folder = `_vance/skills/bench-${String(i).padStart(4, '0')}`;
      await vance.services.documents.put(admin, 'VANCE', null, `${folder}/references/notes.md`, `Notes of skill ${i}.\n`);
      await vance.services.documents.put(admin, 'VANCE', null, `${folder}/SKILL.md`, skillMd(i));
    }
    const graphqlOf = (query: string) => async (): Promise<number> => {
      const res = await fetch(vance.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ query }) });
      const body = (await res.json()) as { data?: { skills: unknown[] }; errors?: unknown };
      if (!body.data) throw new Error(`GraphQL refused the listing: ${JSON.stringify(body.errors)}`);
      return body.data.skills.length;
    };
    const graphql = graphqlOf(GRAPHQL_LIST);
    const thin = graphqlOf(GRAPHQL_THIN);
    const coldStart = performance.now();
    const client = await connectSkills(mcpUrl(vance.url), TOKEN);
    const mcp = async (): Promise<number> => (await client.listSkills()).skills.length;
    const first = await mcp();
    const coldMs = performance.now() - coldStart;
    const listed = await graphql();
    if (first !== listed || listed < size.skills) throw new Error(`the two listings differ: MCP ${first}, GraphQL ${listed} (${size.skills} written)`);
    const timed = async (call: () => Promise<number>): Promise<number> => {
      const started = performance.now();
      for (let i = 0; i < size.calls; i++) await call();
      return (performance.now() - started) / size.calls;
    };
    const rounds: { mcp: number; graphql: number; thin: number }[] = [];
    await thin();
    for (let round = 0; round < size.rounds; round++) {
      // Alternating which path goes first, so neither always runs right after the other's garbage.
      if (round % 2 === 0) {
        const m = await timed(mcp);
        const g = await timed(graphql);
        rounds.push({ mcp: m, graphql: g, thin: await timed(thin) });
      } else {
        const t = await timed(thin);
        const g = await timed(graphql);
        rounds.push({ mcp: await timed(mcp), graphql: g, thin: t });
      }
    }
    await client.close();
    const ratio = percentile(rounds.map((r) => r.mcp / r.graphql), 50);
    const mcpMs = percentile(rounds.map((r) => r.mcp), 50);
    const graphqlMs = percentile(rounds.map((r) => r.graphql), 50);
    const thinMs = percentile(rounds.map((r) => r.thin), 50);
    const thinRatio = percentile(rounds.map((r) => r.mcp / r.thin), 50);
    const f = (ms: number) => ms.toFixed(1);
    const skills = `${listed.toLocaleString('en-US')} skills`;
    report.print(`\n## ${TABLE} (${skills}, ${size.rounds} rounds × ${size.calls} calls, ${database.driver})\n`);
    report.print('| path | median per call | ratio (median of same-round ratios) |');
    report.print('| --- | --- | --- |');
    report.print(`| GraphQL skills(surface: MODEL), the same information | ${f(graphqlMs)} ms | 1.00× |`);
    report.print(`| MCP skills/list (SDK client, every page) | ${f(mcpMs)} ms | ${report.ratio(TABLE, skills, ratio).toFixed(2)}× |`);
    report.print(`| GraphQL skills, names and descriptions only (information) | ${f(thinMs)} ms | MCP ÷ this: ${report.ratio(TABLE, `${skills}, vs names and descriptions only`, thinRatio).toFixed(2)}× |`);
    report.print(`| MCP first call (connect, SDK load, cold publication) | ${f(coldMs)} ms | — |`);
    report.summary({
      name: `skills/list over MCP, ${skills}, vs the GraphQL listing`,
      figure: `${f(mcpMs)} ms`, baseline: `GraphQL skills ${f(graphqlMs)} ms`, ratio, target: `≤ ${TARGET}×`, met: ratio <= TARGET,
    });
    return report.rows;
  } finally {
    await vance.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runAsScript(__filename, runBench);
