import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseSkillEvals, runSkillEvals, percent, type RecipeStart, type SkillEvalReport, type SkillPickJudge } from '../domain/activation';
import type { Diagnostic } from '../domain/errors';
import { TriggerIndex } from '../domain/processes/triggers/trigger-index';
import { parseRecipe } from '../domain/recipes/parse-recipe';
import { parseSkill } from '../domain/skills/parse-skill';
import type { AvailableSkill } from '../domain/skills/skill-resolver';
import { findDocuments, type FoundDocument, type UnreadableRoot } from './find-documents';

/**
 * `vance eval [path]…` (issue 20): every skill with an `evals.yaml` beside its SKILL.md, run offline
 * against the skills found under the same paths — the scope. A name found twice counts once: the
 * first path given wins (list inner layers first, as the cascade does). The matching and the verdict
 * sentences are the turn's (domain/activation/run-skill-evals.ts).
 */
export interface EvaluatedSkill extends SkillEvalReport {
  /** The evals file as the command line named it. */
  readonly file: string;
}

export interface EvalRun {
  readonly skills: readonly EvaluatedSkill[];
  /** evals files that do not parse, and skills whose SKILL.md does not load: each an error. */
  readonly invalid: readonly { readonly file: string; readonly diagnostics: readonly Diagnostic[] }[];
  readonly unreadable: readonly UnreadableRoot[];
  readonly cases: number;
  readonly passed: number;
  /** Failed cases, plus one per invalid evals file and unreadable path. */
  readonly failed: number;
  readonly skipped: number;
}

export async function evaluate(roots: readonly string[], judge: SkillPickJudge | null): Promise<EvalRun> {
  // One root at a time: findDocuments sorts what it finds by path, and here the order of the roots decides.
  const found: FoundDocument[] = [];
  const unreadable: UnreadableRoot[] = [];
  for (const root of roots) {
    const one = await findDocuments([root]);
    found.push(...one.found);
    unreadable.push(...one.unreadable);
  }
  const skills = new Map<string, { doc: FoundDocument; available: AvailableSkill | null; evals: string | null }>();
  const recipes = new Map<string, RecipeStart>();
  const invalid: { file: string; diagnostics: Diagnostic[] }[] = [];
  // The first path given wins a name: pick the documents first, then read them concurrently.
  const skillDocs = firstByName(found.filter((d) => d.kind === 'skill'));
  const recipeDocs = firstByName(found.filter((d) => d.kind === 'recipe'));
  const loaded = await mapConcurrently(skillDocs, async (doc) => ({
    doc,
    available: await loadSkill(doc),
    evals: await readFile(path.join(path.dirname(doc.file), 'evals.yaml'), 'utf8').catch(() => null),
  }));
  for (const entry of loaded) skills.set(entry.doc.name, entry);
  for (const doc of recipeDocs) {
    const { recipe } = parseRecipe({ name: doc.name, path: doc.documentPath, content: await readFile(doc.file, 'utf8') });
    if (recipe) recipes.set(doc.name, { name: doc.name, allowedSkills: recipe.allowedSkills, defaultActiveSkills: recipe.defaultActiveSkills });
  }
  const scope = [...skills.values()].flatMap((s) => (s.available ? [s.available] : []));
  const env = {
    skills: scope,
    index: new TriggerIndex(scope),
    judge,
    recipe: async (name: string) => {
      const recipe = recipes.get(name);
      if (!recipe) throw new Error(`no recipe '${name}' under the paths given`);
      return recipe;
    },
  };
  const reports: EvaluatedSkill[] = [];
  for (const [name, { doc, evals: content }] of skills) {
    if (content === null) continue;
    const shown = `${path.dirname(doc.shown)}/evals.yaml`;
    const parsed = parseSkillEvals(shown, content);
    if (!parsed.evals) {
      invalid.push({ file: shown, diagnostics: [...parsed.diagnostics] });
      continue;
    }
    reports.push({ file: shown, ...(await runSkillEvals(name, parsed.evals, env)) });
  }
  const all = reports.flatMap((r) => r.cases);
  return {
    skills: reports,
    invalid,
    unreadable,
    cases: all.length,
    passed: all.filter((c) => c.passed && !c.skipped).length,
    failed: all.filter((c) => !c.passed).length + invalid.length + unreadable.length,
    skipped: all.filter((c) => c.skipped).length,
  };
}

function firstByName(docs: readonly FoundDocument[]): FoundDocument[] {
  const seen = new Set<string>();
  return docs.filter((d) => !seen.has(d.name) && seen.add(d.name));
}

/** `work` over `items`, at most 32 at a time (file reads: concurrent, but not 2,000 open handles), in order. */
async function mapConcurrently<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(32, items.length) }, worker));
  return out;
}

/** A SKILL.md as the cascade would load it for a turn (no save-time checks); null when it does not load or is disabled. */
async function loadSkill(doc: FoundDocument): Promise<AvailableSkill | null> {
  const content = await readFile(doc.file, 'utf8');
  const { skill, diagnostics } = parseSkill({ name: doc.name, path: doc.documentPath, content });
  if (!skill || !skill.enabled) return null;
  return { name: doc.name, path: doc.documentPath, source: 'RESOURCE', shadowed: [], documentVersion: 1, diagnostics, status: 'AVAILABLE', skill, references: [] };
}

/** One line per case (`file:line result expectation "message" — verdict`), a summary per skill, a total. */
export function formatEvalText(run: EvalRun): string {
  const lines: string[] = run.unreadable.map((u) => `${u.root}: error ${u.problem}`);
  for (const file of run.invalid) {
    for (const d of file.diagnostics) lines.push(`${file.file}:${d.line ?? 1}:${d.column ?? 1} ${d.severity.toLowerCase()} ${d.message}${d.field ? ` (${d.field})` : ''}`);
  }
  for (const report of run.skills) {
    for (const c of report.cases) {
      const result = c.skipped ? 'skip' : c.passed ? 'pass' : 'FAIL';
      const message = c.messages[c.messages.length - 1] ?? '';
      const window = c.messages.length > 1 ? ` (+${c.messages.length - 1} earlier)` : '';
      const problems = c.problems.length > 0 ? ` ${c.problems.join(' ')}` : '';
      lines.push(`${report.file}:${c.line} ${result} ${c.kind}: ${c.expected} ${JSON.stringify(clip(message))}${window} — ${c.verdict}${problems}`);
    }
    lines.push(`  ${summaryOf(report)}`);
    for (const note of report.notes) lines.push(`  note: ${note}`);
  }
  lines.push(`${run.skills.length} skills, ${run.cases} cases: ${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped`);
  return lines.join('\n');
}

function summaryOf(r: SkillEvalReport): string {
  const parts = [`${r.skill}: ${r.passed} passed, ${r.failed} failed${r.skipped > 0 ? `, ${r.skipped} skipped` : ''}`];
  parts.push(`precision ${r.precision === null ? '—' : percent(r.precision)}`, `recall ${r.recall === null ? '—' : percent(r.recall)}`);
  if (r.confusions.length > 0) parts.push(`confusions: ${r.confusions.map((c) => `${c.skill} (${c.cases.length} case${c.cases.length === 1 ? '' : 's'})`).join(', ')}`);
  return parts.join(' · ');
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
