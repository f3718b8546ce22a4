import { estimateTokens } from './tokens';

/**
 * The catalog of `picked` / model-invocable skills in `open_skill`'s description (issue 8, seed 003
 * "open_skill lists every picked skill in its own description, as a name and what it is for"), fitted
 * to a token budget — never silently. One line per skill, in the order given: `- name: description`.
 *
 * While the text is over budget, skills are cut one step at a time, least-used first (ties: the
 * longer description first, then the later name), in this documented order:
 *   1. SHORTENED — the description becomes its first sentence, at most `shortChars` characters (… when cut);
 *      skipped for a skill whose description is already that short;
 *   2. NAME_ONLY — the description is dropped (`- name`);
 *   3. OMITTED — the line is dropped; one closing line says how many are not listed ("(+2 more)");
 *      open_skill still accepts their names.
 * A whole round of step 1 runs before step 2 starts, and so on. The result lists each cut skill once,
 * with its final cut, and a one-line summary for the preview.
 */
export interface CatalogEntry {
  readonly name: string;
  readonly description: string;
}

export interface CatalogBudgetInput {
  readonly skills: readonly CatalogEntry[];
  /** How often each skill was opened (missing = 0); the least-used shrink first. */
  readonly uses?: Readonly<Record<string, number>> | ReadonlyMap<string, number>;
  readonly budgetTokens: number;
  /** Text before the list (counted in the budget), e.g. "Open a skill by name. Skills:". */
  readonly header?: string;
  /** Step 1's length cap; default 80. */
  readonly shortChars?: number;
}

export type CatalogCutKind = 'SHORTENED' | 'NAME_ONLY' | 'OMITTED';

export interface CatalogCut {
  readonly skill: string;
  readonly cut: CatalogCutKind;
}

export interface BudgetedCatalog {
  readonly text: string;
  readonly tokens: number;
  readonly budgetTokens: number;
  /** false when even with every skill omitted the header alone is over budget. */
  readonly fits: boolean;
  readonly cuts: readonly CatalogCut[];
  /** "Catalog: 12 skills in 340 of 500 tokens." / "Catalog cut to fit 500 tokens: 3 shortened, 2 names only, 1 omitted (least-used first)." */
  readonly summary: string;
}

type Level = 0 | 1 | 2 | 3;
const CUT_OF: Record<Exclude<Level, 0>, CatalogCutKind> = { 1: 'SHORTENED', 2: 'NAME_ONLY', 3: 'OMITTED' };

export function budgetCatalog(input: CatalogBudgetInput): BudgetedCatalog {
  const shortChars = input.shortChars ?? 80;
  const header = input.header ?? '';
  const entries = input.skills.map((s) => ({ ...s, short: shorten(s.description, shortChars), level: 0 as Level }));
  const uses = (name: string): number => (input.uses instanceof Map ? input.uses.get(name) : (input.uses as Record<string, number> | undefined)?.[name]) ?? 0;
  const order = [...entries].sort((a, b) => uses(a.name) - uses(b.name) || b.description.length - a.description.length || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));

  const lineOf = (e: (typeof entries)[number]): string | null => {
    switch (e.level) {
      case 0:
        return e.description ? `- ${e.name}: ${e.description}` : `- ${e.name}`;
      case 1:
        return e.short ? `- ${e.name}: ${e.short}` : `- ${e.name}`;
      case 2:
        return `- ${e.name}`;
      case 3:
        return null;
    }
  };
  // Short on purpose: it is paid for from the same budget; open_skill still accepts omitted names.
  const omittedLine = (omitted: number): string => (omitted === 0 ? '' : `(+${omitted} more)`);
  const render = (): string => {
    const lines = entries.map(lineOf).filter((l): l is string => l !== null);
    return [header, ...lines, omittedLine(entries.filter((e) => e.level === 3).length)].filter((l) => l !== '').join('\n');
  };
  // Incremental token accounting (a render and a count per step would be O(n²)): each line priced
  // alone, each line break as a token — never less than the count of the joined text, so a catalog
  // that fits here fits when counted whole.
  const lineTokens = (e: (typeof entries)[number]): number => {
    const line = lineOf(e);
    return line === null ? 0 : estimateTokens(line);
  };
  const headerTokens = estimateTokens(header);
  let linesTokens = 0;
  let lineCount = 0;
  let omitted = 0;
  for (const e of entries) {
    linesTokens += lineTokens(e);
    lineCount++;
  }
  const upperTokens = (): number => {
    const parts = [...(header !== '' ? [headerTokens] : []), ...(omitted > 0 ? [estimateTokens(omittedLine(omitted))] : [])];
    const count = parts.length + lineCount;
    return parts.reduce((a, b) => a + b, 0) + linesTokens + Math.max(0, count - 1);
  };
  const fits = (): boolean => upperTokens() <= input.budgetTokens;
  for (const target of [1, 2, 3] as const) {
    for (const e of order) {
      if (fits()) break;
      if (e.level >= target || (target === 1 && e.short === e.description)) continue;
      linesTokens -= lineTokens(e);
      e.level = target;
      if (lineOf(e) === null) {
        lineCount--;
        omitted++;
      } else {
        linesTokens += lineTokens(e);
      }
    }
  }
  const text = render();
  const tokens = estimateTokens(text);
  const cuts = order.filter((e) => e.level > 0).map((e) => ({ skill: e.name, cut: CUT_OF[e.level as Exclude<Level, 0>] }));
  return { text, tokens, budgetTokens: input.budgetTokens, fits: tokens <= input.budgetTokens, cuts, summary: summarize(entries.length, tokens, input.budgetTokens, cuts) };
}

/** The first sentence, at most `max` characters (cut at a word boundary when possible, with …). */
export function shorten(description: string, max: number): string {
  const sentence = /^.*?[.!?](?=\s|$)/s.exec(description)?.[0] ?? description;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, Math.max(1, max - 1));
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function summarize(count: number, tokens: number, budget: number, cuts: readonly CatalogCut[]): string {
  if (cuts.length === 0) return `Catalog: ${count} skill${count === 1 ? '' : 's'} in ${tokens} of ${budget} tokens.`;
  const n = (kind: CatalogCutKind) => cuts.filter((c) => c.cut === kind).length;
  const parts = [
    n('SHORTENED') > 0 ? `${n('SHORTENED')} shortened` : null,
    n('NAME_ONLY') > 0 ? `${n('NAME_ONLY')} name${n('NAME_ONLY') === 1 ? '' : 's'} only` : null,
    n('OMITTED') > 0 ? `${n('OMITTED')} omitted` : null,
  ].filter(Boolean);
  const over = tokens > budget ? ` Still over budget (${tokens} tokens).` : '';
  return `Catalog cut to fit ${budget} tokens: ${parts.join(', ')} (least-used first).${over}`;
}
