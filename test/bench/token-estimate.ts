/**
 * The context budget's token estimate (issue 15): tokenx against the characters ÷ 4 it replaced, on
 * text the budget prices every turn — an English manual and recipe, a Japanese and a Chinese chat —
 * as a ratio of the counts (how much more tokenx counts), and tokenx's throughput (what fitting a
 * full 128,000-token history costs per turn). Part of the turn-preparation bench.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { estimateTokenCount } from 'tokenx';
import { estimateTokens, estimateTokensByChars } from '../../api/src/domain/activation/tokens';
import type { BenchReport } from './harness';

const DEFAULTS = path.resolve(__dirname, '../../vance-defaults/_vance');
const JAPANESE = '東京都は日本の首都であり、世界で最も人口の多い都市圏の一つです。明日の会議の資料を準備してください。先週の売上報告書を確認して、問題点を三つ挙げてください。';
const CHINESE = '北京是中华人民共和国的首都，也是全国的政治和文化中心。请帮我总结一下这份报告的要点，并列出三个需要改进的地方。我们下周一开会讨论这个问题。';

export function tokenEstimateTable(report: BenchReport, tiny: boolean): void {
  const texts: [string, string][] = [
    ['English manual (skill-authoring.md)', readFileSync(path.join(DEFAULTS, 'manuals/skill-authoring.md'), 'utf8')],
    ['English recipe (ford.yaml)', readFileSync(path.join(DEFAULTS, 'recipes/ford.yaml'), 'utf8')],
    ['Japanese chat', JAPANESE.repeat(20)],
    ['Chinese chat', CHINESE.repeat(20)],
  ];
  const table = 'Token estimate, tokenx ÷ chars/4';
  const out = report.print;
  out(`\n## ${table}: how many more tokens the budget counts (reference, by hand against OpenAI o200k: tokenx within 2 % on the English, +10 % / +31 % on the Japanese / Chinese; chars/4 −66 % / −60 %)\n`);
  out('| text | chars | chars/4 | tokenx | tokenx ÷ chars/4 |');
  out('| --- | ---: | ---: | ---: | ---: |');
  for (const [name, text] of texts) {
    const old = estimateTokensByChars(text);
    const now = estimateTokens(text);
    out(`| ${name} | ${text.length} | ${old} | ${now} | ${report.ratio(table, name, now / old).toFixed(2)} |`);
  }
  // Throughput over ~1 MB of mixed text (a 128k-token history is about 0.5 MB of English).
  const mixed = texts.map(([, t]) => t).join('\n');
  const corpus = mixed.repeat(Math.max(1, Math.ceil((tiny ? 50_000 : 1_000_000) / mixed.length)));
  const rounds = tiny ? 2 : 10;
  // As a history: 500-character messages, priced by tokenx (first turn) and again from the memo (later turns).
  const messages = Array.from({ length: Math.ceil(corpus.length / 500) }, (_v, i) => `${i} ${corpus.slice(i * 500, i * 500 + 500)}`);
  // Each turn reads its log anew: fresh string copies, so the memo pays for hashing each one.
  const fresh = () => messages.map((m) => Buffer.from(m).toString());
  const time = (estimate: (text: string) => number) => {
    const copies = Array.from({ length: rounds }, fresh);
    const started = performance.now();
    for (const copy of copies) for (const m of copy) estimate(m);
    return (performance.now() - started) / rounds / (corpus.length / 1_000_000);
  };
  const raw = time(estimateTokenCount);
  time(estimateTokens);
  const memo = time(estimateTokens);
  out(`\ntokenx: ${raw.toFixed(1)} ms per million characters of 500-character messages; ${memo.toFixed(1)} ms once remembered (tokens.ts); chars/4 is a property read.`);
}
