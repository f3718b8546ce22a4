import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DocumentTooCostlyError } from '../domain/documents/document-validator';
import { LimitExceededError } from '../domain/errors';
import { DEFAULT_TEMPLATE_LIMITS, NunjucksTemplateEngine } from '../templates';
import { parseRecipe } from '../domain/recipes/parse-recipe';
import { parseSkill } from '../domain/skills/parse-skill';
import { createDocumentValidator } from './document-validators';
import { ValidationPool, type ValidationPoolOptions } from './validation-pool';
import { VALIDATION_THREAD_NICE } from './validation-task';

/**
 * Issue 13 part 4: validation on worker threads. The pool must answer what the inline validator
 * answers, stop a validation at its deadline (the worker is replaced, the next one is served), and
 * refuse beyond its queue. A 1 MB recipe is the costly document: about a second of CPU to read, far
 * beyond the deadlines below, so the limits are met however fast the machine is.
 */
const workerData = { templateLimits: DEFAULT_TEMPLATE_LIMITS, regexCheck: { timeoutMs: 0, budgetMsPerMinute: 0 } };
const inline = createDocumentValidator(new NunjucksTemplateEngine({ sandbox: 'in-process' }));
const pools: ValidationPool[] = [];
const pool = (options: Partial<ValidationPoolOptions> = {}) => {
  const created = new ValidationPool({ validator: createDocumentValidator(), workerData, timeoutMs: 120_000, threads: 1, ...options });
  pools.push(created);
  return created;
};
afterAll(async () => Promise.all(pools.map((p) => p.close())));

function megabyteRecipe(): string {
  let text = 'engine: ford\ndescription: a recipe near the size limit\nallowedSkills:\n';
  for (let i = 0; text.length < 1_000_000; i++) text += `  - skill-${i}\n`;
  return text;
}

const SAMPLES: [string, string][] = [
  ['_vance/skills/good/SKILL.md', '---\nname: good\ndescription: fine\ntriggers:\n  - type: PATTERN\n    pattern: "deploy(ment)? to prod"\n---\nBody {{ x }}\n'],
  ['_vance/skills/bad/SKILL.md', '---\nname: bad\ndescription: x\ndescription: y\n---\nBody {{ x\n'],
  ['_vance/recipes/r.yaml', 'engine: ford\ndescription: x\npromptPrefix: "{% if %}"\nparams: {a: [1, {b: 2}]}\n'],
  ['_vance/recipes/broken.yaml', 'engine: [ford\n'],
];

describe('ValidationPool', () => {
  it.each(SAMPLES)('answers %s as the inline validator does', async (path, content) => {
    expect(await pool().validate(path, content)).toEqual(inline.validate(path, content));
  });

  // Issue 15: tool entries are checked against the server's catalog on the worker too, read per validation.
  it('checks tool entries against the catalog it is given, as the inline validator does, following catalog changes', async () => {
    let tools = [{ name: 'doc_read', labels: ['read'] }];
    const catalog = { list: () => tools };
    const checking = pool({ tools: catalog });
    const recipe = 'engine: ford\ndescription: x\nallowedToolsAdd: [doc_read, web_search, "@web"]\n';
    const skill = '---\nname: s\ndescription: d\ntools: [web_search]\n---\nBody\n';
    const onWorker = await checking.validate('_vance/recipes/r.yaml', recipe);
    expect(onWorker.map((d) => [d.severity, d.line, d.field])).toEqual([['WARNING', 3, 'allowedToolsAdd[1]'], ['WARNING', 3, 'allowedToolsAdd[2]']]);
    expect(onWorker).toEqual(createDocumentValidator(undefined, undefined, catalog).validate('_vance/recipes/r.yaml', recipe));
    expect((await checking.validate('_vance/skills/s/SKILL.md', skill)).map((d) => d.field)).toContain('tools[0]');
    tools = [...tools, { name: 'web_search', labels: ['web'] }];
    expect(await checking.validate('_vance/recipes/r.yaml', recipe)).toEqual([]);
  });

  it.runIf(process.platform === 'linux')('runs its workers at a lower CPU priority than the server thread (Linux: per thread)', async () => {
    const niceOf = (stat: string): number => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    const ownNice = niceOf(readFileSync('/proc/thread-self/stat', 'utf8'));
    const validating = pool();
    await validating.validate('_vance/recipes/big.yaml', megabyteRecipe());
    const threads = readdirSync('/proc/self/task').map((tid) => {
      try {
        return niceOf(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'));
      } catch {
        return null; // a thread that ended meanwhile
      }
    });
    expect(threads).toContain(Math.min(ownNice + VALIDATION_THREAD_NICE, 19));
    // This thread (the server's, in production) kept its own.
    expect(niceOf(readFileSync('/proc/thread-self/stat', 'utf8'))).toBe(ownNice);
  });

  it('parses a large JSON request body on a worker as JSON.parse does, and says when it is not JSON', async () => {
    const json = pool().jsonParser(10);
    const body = JSON.stringify({ query: 'mutation M($t: String!) { sendMessage(text: $t) { id } }', variables: { t: 'x'.repeat(200_000), n: [1, 2.5, null, true] } });
    expect(await json.parse(body)).toEqual({ value: JSON.parse(body) });
    expect(await json.parse('{"query": ')).toBeUndefined();
  });

  it('answers free documents without a worker', async () => {
    const p = pool();
    expect(await p.validate('notes/readme.md', 'anything: [')).toEqual([]);
    expect(p.kindOf('notes/readme.md')).toBeNull();
    expect(p.kindOf('_vance/recipes/r.yaml')).toBe('recipe');
  });

  it('reads a 1 MB recipe of 80,000 allowed skills', async () => {
    expect(await pool().validate('_vance/recipes/big.yaml', megabyteRecipe())).toEqual([]);
  });

  it('stops a validation at its deadline with DOCUMENT_TOO_COSTLY, and serves the next one on a fresh worker', async () => {
    const p = pool();
    await p.validate(...SAMPLES[2]!); // a warm worker, so that the deadline meets the reading itself
    const refused = await p.validate('_vance/recipes/big.yaml', megabyteRecipe(), 5).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DocumentTooCostlyError);
    expect(refused).toMatchObject({ code: 'DOCUMENT_TOO_COSTLY', category: 'BAD_INPUT' });
    expect((refused as Error).message).toContain('longer than 5 ms');
    // The worker that ran it was terminated; the next validation gets a fresh one.
    expect(await p.validate(...SAMPLES[2]!)).toEqual(inline.validate(...SAMPLES[2]!));
  });

  it('refuses beyond its queue with RATE_LIMITED, and validates what it took', async () => {
    const p = pool({ maxQueue: 1 });
    const big = megabyteRecipe();
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => p.validate('_vance/recipes/big.yaml', big).then(() => 'ok', (e: unknown) => e)));
    const refused = outcomes.filter((o) => o instanceof LimitExceededError);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]).toMatchObject({ code: 'RATE_LIMITED', limit: 'validationQueue', max: 1 });
    expect(outcomes.filter((o) => o === 'ok').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.every((o) => o === 'ok' || o instanceof LimitExceededError)).toBe(true);
  });
});

describe('ValidationPool as the loaders\' parser of large documents', () => {
  const SKILL = { name: 'big', path: '_vance/skills/big/SKILL.md', content: "---\ntitle: Big\ndescription: d\nversion: 1.0.0\ntriggers:\n  - type: PATTERN\n    pattern: 'deploy(ment)? to (prod|staging)'\n  - type: KEYWORDS\n    keywords: [ship, release]\n---\nBody {{ x }}\n" };

  it('parses a skill as parseSkill does, with trigger regexes that match again', async () => {
    const parsed = await pool().skillParser(1).parse(SKILL);
    const inPlace = parseSkill(SKILL, new NunjucksTemplateEngine({ sandbox: 'in-process' }));
    expect(parsed.diagnostics).toEqual(inPlace.diagnostics);
    const strip = (p: typeof parsed) => ({ ...p.skill, triggers: p.skill!.triggers.map((t) => (t.type === 'PATTERN' ? { ...t, regex: t.regex.source } : t)) });
    expect(strip(parsed)).toEqual(strip(inPlace));
    const pattern = parsed.skill!.triggers[0]!;
    expect(pattern.type === 'PATTERN' && pattern.regex.test('Deployment to PROD now')).toBe(true);
    expect(pattern.type === 'PATTERN' && pattern.regex.find('please deploy to staging')).toBe('deploy to staging');
  });

  it('parses a recipe as parseRecipe does', async () => {
    const input = { name: 'r', path: '_vance/recipes/r.yaml', content: SAMPLES[2]![1] };
    expect(await pool().recipeParser(1).parse(input)).toEqual(parseRecipe(input, new NunjucksTemplateEngine({ sandbox: 'in-process' })));
  });

  it('loads a document past the deadline as broken, saying why', async () => {
    const p = pool({ timeoutMs: 5 });
    const parsed = await p.recipeParser(1).parse({ name: 'big', path: '_vance/recipes/big.yaml', content: megabyteRecipe() });
    expect(parsed.recipe).toBeNull();
    expect(parsed.diagnostics).toEqual([expect.objectContaining({ severity: 'ERROR', message: expect.stringContaining('it is not loaded') })]);
  });
});
