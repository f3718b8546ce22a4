/**
 * The deterministic corpus of the turn-preparation bench: N realistic SKILL.md documents over the
 * three stored layers (KEYWORDS and PATTERN triggers, templated bodies, some shadowed copies), three
 * sticky skills with reference files, and the user messages the turns are prepared for. Seeded, so
 * every run and both paths see the same skills and messages.
 */
import type { StoredLayer } from '../../api/src/domain/cascade/layer';
import { SKILLS_PREFIX } from '../../api/src/domain/skills';

export const MESSAGES = 400;

/** A seeded PRNG (mulberry32): the same corpus on every run. */
export function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON = (
  'the a to of and in is it you that for on with this be are not have can do what how please check look ' +
  'code review test build deploy release bug fix error issue change diff branch merge commit file function ' +
  'class module type api endpoint request response database query index table schema migration config ' +
  'server client cache latency memory performance security token user project tenant document report ' +
  'summary plan step write read update delete create list find explain compare better faster simple ' +
  'schau mal bitte den die das und ist nicht warum wie änderung prüfen abwägen besser übersicht'
).split(' ');
const CODE = ['src/app.ts', 'index.tsx', 'TS2345', 'package.json', 'main.py', 'Dockerfile', 'v1.2.3', 'PR #42', 'http://localhost:4000', '--force', 'SELECT *', 'npm test'];
const CONSONANTS = 'bcdfghklmnprstvwz';
const VOWELS = 'aeiou';

export function topicWord(i: number): string {
  // A unique pronounceable word per i (z-suffix keeps it clear of COMMON words).
  let n = i + 1000;
  let word = '';
  while (n > 0) {
    word += CONSONANTS[n % CONSONANTS.length]! + VOWELS[Math.floor(n / CONSONANTS.length) % VOWELS.length]!;
    n = Math.floor(n / (CONSONANTS.length * VOWELS.length));
  }
  return `${word}z`;
}

export const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const sentence = (rng: () => number, words: number) => Array.from({ length: words }, () => pick(rng, COMMON)).join(' ');

export interface SkillDoc {
  readonly layer: StoredLayer;
  readonly path: string;
  readonly content: string;
}

export interface Generated {
  readonly docs: SkillDoc[];
  readonly topics: readonly [string, string][];
  readonly active: readonly string[];
}

const yamlQuote = (text: string) => `'${text.replace(/'/g, "''")}'`;

function skillTriggers(rng: () => number, t1: string, t2: string): string[] {
  const lines = ['triggers:'];
  const roll = rng();
  if (roll < 0.45) {
    const keywords = [t1, t2, pick(rng, COMMON.slice(20, 90))];
    if (rng() < 0.3) keywords.push(`${t1} ${pick(rng, ['review', 'plan', 'report', 'check'])}`);
    lines.push('  - type: KEYWORDS', `    keywords: [${keywords.map(yamlQuote).join(', ')}]`);
    if (rng() < 0.2) lines.push('    minMatch: 2');
  }
  if (roll >= 0.3) {
    const patterns = [
      `(?i)\\b${t1}\\b.*\\b(${t2}|${pick(rng, ['deploy', 'review', 'release'])})\\b`,
      `(?i)(show|check|explain) (the )?${t1}`,
      `(?i)\\b${t2}[0-9]{2,4}\\b`,
      `(?i)^\\s*(please )?${t1}`,
      `(?i)(${t1}|${t2})-(api|service|job)`,
    ];
    lines.push('  - type: PATTERN', `    pattern: ${yamlQuote(pick(rng, patterns))}`);
  }
  if (rng() < 0.03) lines.push('  - type: PATTERN', `    pattern: ${yamlQuote('(?i)^[0-9a-f]{40}$')}`); // no required literal: always runs
  return lines;
}

function skillBody(rng: () => number, i: number): string {
  const parts = [`# Skill ${i}`, '', `${sentence(rng, 18)}.`, `- ${sentence(rng, 10)}.`, `- ${sentence(rng, 12)}.`, `- ${sentence(rng, 9)}.`];
  if (rng() < 0.4) parts.push('{% if args.text %}Focus on: {{ args.text }}.{% else %}Work on the whole change.{% endif %}', 'Recipe: {{ recipe }} ({{ mode }}).');
  parts.push(`${sentence(rng, 14)}.`);
  return parts.join('\n');
}

function skillDocument(rng: () => number, i: number, t1: string, t2: string, extra: string[] = []): string {
  const lines = ['---', `title: Skill ${t1}`, `description: ${yamlQuote(`Helps with ${t1} and ${t2} work — ${sentence(rng, 6)}`)}`, 'version: 1.0.0', `tags: [${t1}, bench]`];
  if (rng() < 0.9) lines.push(...skillTriggers(rng, t1, t2));
  if (rng() < 0.05) lines.push('disable-model-invocation: true');
  if (rng() < 0.03) lines.push('run:', '  target: spawn', '  recipe: code-read', 'action: Review the current changes now.');
  lines.push(`tools: [${[pick(rng, ['doc_read', 'doc_grep', 'workspace_read']), pick(rng, ['web_fetch', 'rag_query', 'doc_write'])].join(', ')}]`);
  lines.push(...extra, '---', skillBody(rng, i));
  return lines.join('\n');
}

export function generate(n: number): Generated {
  const rng = mulberry32(n);
  const docs: SkillDoc[] = [];
  const topics: [string, string][] = [];
  for (let i = 0; i < n; i++) {
    const t1 = topicWord(2 * i);
    const t2 = topicWord(2 * i + 1);
    topics.push([t1, t2]);
    const roll = rng();
    const layer: StoredLayer = roll < 0.05 ? 'USER' : roll < 0.2 ? 'PROJECT' : 'VANCE';
    const path = `${SKILLS_PREFIX}skill-${String(i).padStart(5, '0')}-${t1}/SKILL.md`;
    docs.push({ layer, path, content: skillDocument(rng, i, t1, t2) });
    if (rng() < 0.05) docs.push({ layer: 'VANCE', path, content: skillDocument(rng, i, t1, t2) }); // shadowed by the inner copy when layers differ
  }
  // Three active skills (sticky, one with arguments), each with an INLINE and an ON_DEMAND reference doc.
  const active: string[] = [];
  for (const [k, templated] of [[0, true], [1, true], [2, false]] as const) {
    const name = `active-${k}`;
    active.push(name);
    const dir = `${SKILLS_PREFIX}${name}`;
    const refs = [
      'arguments: true',
      'referenceDocs:',
      '  - title: Checklist',
      '    file: references/checklist.md',
      '    loadMode: INLINE',
      '  - title: Deep dive',
      '    file: references/deep-dive.md',
      '    summary: Background and edge cases',
      '    loadMode: ON_DEMAND',
    ];
    const body = templated
      ? `# Active ${k}\n\n${sentence(rng, 30)}.\n{% if args.text %}Focus on: {{ args.text }}.{% endif %}\nRecipe {{ recipe }}, profile {{ profile }}, at most {{ params.maxSteps }} steps.\n${sentence(rng, 25)}.`
      : `# Active ${k}\n\n${sentence(rng, 30)}.\n- ${sentence(rng, 20)}.\n- ${sentence(rng, 20)}.`;
    const head = ['---', `title: Active ${k}`, `description: Active skill ${k} for the bench`, 'version: 1.0.0', 'tools: [doc_read, skill_reference_doc]', ...refs, '---'];
    docs.push({ layer: 'VANCE', path: `${dir}/SKILL.md`, content: [...head, body].join('\n') });
    docs.push({ layer: 'VANCE', path: `${dir}/references/checklist.md`, content: `- ${sentence(rng, 12)}\n- ${sentence(rng, 12)}\n` });
    docs.push({ layer: 'VANCE', path: `${dir}/references/deep-dive.md`, content: `${sentence(rng, 80)}\n` });
  }
  return { docs, topics, active };
}

/** MESSAGES user messages: chat and code words, 30 % naming a skill's topics, 5 % with a pasted log. */
export function messages(topics: readonly [string, string][]): string[] {
  const rng = mulberry32(7);
  const out: string[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const words: string[] = [];
    const length = 12 + Math.floor(rng() * 40);
    for (let w = 0; w < length; w++) words.push(rng() < 0.1 ? pick(rng, CODE) : pick(rng, COMMON));
    const roll = rng();
    const mention = (k: number) => {
      const [t1, t2] = pick(rng, topics);
      const at = Math.floor(rng() * words.length);
      words.splice(at, 0, ...(k % 2 === 0 ? [t1, 'and', t2] : [`check the ${t1}`, `${t2}-service`]));
    };
    if (roll < 0.3) mention(i);
    if (roll < 0.05) mention(i + 1);
    let text = words.join(' ');
    if (rng() < 0.05) text += `\n\`\`\`\n${Array.from({ length: 60 }, () => sentence(rng, 8)).join('\n')}\n\`\`\``; // a pasted log, ~3 KB
    out.push(text.charAt(0).toUpperCase() + text.slice(1) + (rng() < 0.5 ? '?' : '.'));
  }
  return out;
}
