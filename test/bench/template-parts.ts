/**
 * Where a template render's CPU goes (issue 18 point 3): each part of the engine's full path timed
 * alone, in µs of process CPU per call, in one process and interleaved (rounds × calls), next to
 * raw nunjucks compiled once. Printed, never asserted.
 *
 *   node --no-node-snapshot --import tsx test/bench/template-parts.ts
 */
import { isolatedVm } from '../../api/src/sandbox/isolated-vm';
import * as sandbox from '../../api/src/sandbox/isolated-template-renderer';
import * as templates from '../../api/src/templates';
import { createRenderCore } from '../../api/src/templates/render-core';
import { RENDER_CORE_PARTS } from '../../api/src/templates/render-core-parts';
import { NODE_NUNJUCKS } from '../../api/src/templates/in-process-renderer';
import { toTemplateData } from '../../api/src/templates/template-data';
import { UNHURRIED_TEMPLATE_LIMITS } from './harness';
import { CONTEXT, defaultEnv, defaultNunjucks, TEMPLATE } from './templates';

const LIMITS = { ...templates.DEFAULT_TEMPLATE_LIMITS, ...UNHURRIED_TEMPLATE_LIMITS };
const CONFIG = { limits: LIMITS, templates: {}, cacheSize: 500 };
const ROUNDS = Number(process.env.ROUNDS ?? 8);
const CALLS = Number(process.env.CALLS ?? 500);

type Part = [name: string, run: () => unknown];

async function main(): Promise<void> {
  const compiled = new (defaultNunjucks().Template)(TEMPLATE, defaultEnv(), undefined, true);
  const core = createRenderCore(NODE_NUNJUCKS, RENDER_CORE_PARTS, CONFIG);
  if (core.compile('x', TEMPLATE)) throw new Error('does not compile');
  const engine = new templates.NunjucksTemplateEngine({ sandbox: 'isolate', limits: LIMITS });
  const renderer = new sandbox.IsolatedTemplateRenderer(CONFIG, LIMITS);
  const data = toTemplateData(CONTEXT, LIMITS);
  const json = JSON.stringify(data);
  const jsonCopy = JSON.parse(JSON.stringify(json)) as string; // equal text, another string
  const output = compiled.render(CONTEXT);
  await engine.render(TEMPLATE, CONTEXT);
  renderer.render('x', TEMPLATE, data);

  // Probes in an isolate of their own: bare calls, and a string of the output's length coming back.
  const ivm = isolatedVm();
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  const context = isolate.createContextSync();
  context.global.setSync('OUT', output);
  context.evalSync(`globalThis.noop = function () { return ''; };
    globalThis.bare = function () { return OUT; };
    globalThis.boxed = function () { return [OUT]; };`);
  const ref = (name: string) => context.global.getSync(name, { reference: true }) as import('../../api/src/sandbox/isolated-vm').ivm.Reference<() => unknown>;
  const noop = ref('noop');
  const bare = ref('bare');
  const boxed = ref('boxed');
  const copy = { arguments: { copy: true }, result: { copy: true } };
  const running = (renderer as unknown as { running: { render: typeof noop; isolate: typeof isolate } }).running;
  const hashOf = (engine as unknown as { hashOf(s: string): string }).hashOf.bind(engine);

  const parts: Part[] = [
    ['raw nunjucks, compiled once (BASELINE)', () => compiled.render(CONTEXT)],
    ['hardened render in-process (renderCompiled)', () => core.renderCompiled('x', data)],
    ['toTemplateData(context)', () => toTemplateData(CONTEXT, LIMITS)],
    ['JSON.stringify(data)', () => JSON.stringify(data)],
    ['json === sentJson (equal, other string)', () => json === jsonCopy],
    ['hashOf(source) (LRU get)', () => hashOf(TEMPLATE)],
    ['applySync noop', () => noop.applySync(undefined, [])],
    ['applySync noop, timeout', () => noop.applySync(undefined, [], { timeout: 20_000 })],
    ['applySync noop, timeout + copy options', () => noop.applySync(undefined, [], { timeout: 20_000, ...copy })],
    ['output back as a bare string', () => bare.applySync(undefined, [])],
    ['output back as a copied [string]', () => boxed.applySync(undefined, [], copy)],
    ['getHeapStatisticsSync', () => running.isolate.getHeapStatisticsSync()],
    ['isolate render call, context held (renderer.render)', () => renderer.render('x', TEMPLATE, data)],
    ['isolate call only, context held ([id])', () => running.render.applySync(undefined, ['x'], { timeout: 20_000, ...copy })],
  ];
  const { profileAppend, ...turnContext } = CONTEXT;
  const held = engine.context(turnContext);
  await held.render(TEMPLATE);
  const whole = engine.context(CONTEXT);
  const asyncParts: Part[] = [
    ['engine.render (full path, same context object)', () => engine.render(TEMPLATE, CONTEXT)],
    ['engine.context(context) (the copy)', () => engine.context(turnContext)],
    ['context.render, context held, no extra', () => held.render(TEMPLATE)],
    ['context.render, context held, extra { profileAppend }', () => held.render(TEMPLATE, { profileAppend })],
    ['context.render, whole context held (profileAppend in it), no extra', () => whole.render(TEMPLATE)],
    ['a turn: engine.context + 3 renders with extra, per render', async () => {
      const rendering = engine.context(turnContext);
      await rendering.render(TEMPLATE, { profileAppend: '' });
      for (let r = 1; r < 3; r++) await rendering.render(TEMPLATE, { profileAppend });
    }],
  ];
  const cpu = new Map<string, number[]>();
  const all = [...parts, ...asyncParts];
  for (const [name] of all) cpu.set(name, []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of parts) {
      const t0 = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) run();
      const d = process.cpuUsage(t0);
      cpu.get(name)!.push((d.user + d.system) / CALLS);
    }
    for (const [name, run] of asyncParts) {
      const t0 = process.cpuUsage();
      for (let i = 0; i < CALLS; i++) await run();
      const d = process.cpuUsage(t0);
      cpu.get(name)!.push((d.user + d.system) / CALLS / (name.startsWith('a turn') ? 3 : 1));
    }
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  const base = median(cpu.get(all[0]![0])!);
  console.log(`load ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').trim()}; ${ROUNDS} rounds × ${CALLS} calls; output ${output.length} chars, context JSON ${json.length} chars\n`);
  console.log('| part | µs CPU per call, median (min) | ÷ baseline |');
  console.log('| --- | ---: | ---: |');
  for (const [name] of all) {
    const v = cpu.get(name)!;
    console.log(`| ${name} | ${median(v).toFixed(1)} (${Math.min(...v).toFixed(1)}) | ${(median(v) / base).toFixed(2)} |`);
  }
  isolate.dispose();
  renderer.dispose();
  engine.dispose();
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
