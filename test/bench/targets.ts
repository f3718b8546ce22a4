/**
 * The targets of issue 18's table that `npm run bench` must show a figure for. A bench answers a
 * target with a SummaryRow whose `name` matches `pattern` (harness.ts: `report.summary(...)`); a
 * target no bench answered is listed as "not measured" at the end of the summary table, so a bench
 * that stopped reporting (or was never written) is a visible gap rather than a missing line.
 *
 * When a bench names its row differently, change the pattern here, not the issue's wording.
 */
export interface ExpectedTarget {
  /** The row, as shown when nothing answered it. */
  readonly what: string;
  /** The target as the issue states it. */
  readonly target: string;
  /** Matches the `name` of the SummaryRow that answers it (case-insensitive). */
  readonly pattern: RegExp;
  /** Measured only against PostgreSQL (TEST_DATABASE_URL); without it the gap says so. */
  readonly postgres?: true;
}

export const EXPECTED_TARGETS: readonly ExpectedTarget[] = [
  { what: 'turn overhead p50, PGlite', target: '< 5 ms', pattern: /^turn overhead p50\b.*pglite/i },
  { what: 'turn overhead p99, PGlite', target: '< 15 ms', pattern: /^turn overhead p99\b.*pglite/i },
  { what: 'turn overhead p50, PostgreSQL', target: '< 5 ms', pattern: /^turn overhead p50\b.*postgres/i, postgres: true },
  { what: 'turn overhead p99, PostgreSQL', target: '< 15 ms', pattern: /^turn overhead p99\b.*postgres/i, postgres: true },
  { what: 'fan-out TextDelta p50, 1,000 subscribers, PGlite', target: '< 10 ms', pattern: /^fan-out\b.*p50\b.*pglite/i },
  { what: 'fan-out TextDelta p99, 1,000 subscribers, PGlite', target: '< 50 ms', pattern: /^fan-out\b.*p99\b.*pglite/i },
  { what: 'fan-out TextDelta p50, 1,000 subscribers, PostgreSQL', target: '< 10 ms', pattern: /^fan-out\b.*p50\b.*postgres/i, postgres: true },
  { what: 'fan-out TextDelta p99, 1,000 subscribers, PostgreSQL', target: '< 50 ms', pattern: /^fan-out\b.*p99\b.*postgres/i, postgres: true },
  { what: 'template render, full path vs raw nunjucks compiled once', target: '≤ 1.5×', pattern: /^template render, engine full path/i },
  { what: 'small script on the warm pool, p50', target: '< 0.5 ms', pattern: /^small script on the warm pool, p50/i },
  { what: 'GraphQL effectiveDocument, warm cache, vs a trivial query', target: '≥ 0.8×', pattern: /^effectiveDocument\b.*warm cache/i },
  { what: 'embedded start, empty data dir: time to /healthz', target: '< 5 s', pattern: /^embedded start, empty\b.*(time|healthz)/i },
  { what: 'embedded start, empty data dir: RSS', target: '< 400 MB', pattern: /^embedded start, empty\b.*rss/i },
  { what: 'embedded start, existing data dir: time to /healthz', target: '< 1.5 s', pattern: /^embedded start, existing\b.*(time|healthz)/i },
  { what: 'embedded start, existing data dir: RSS', target: '< 300 MB', pattern: /^embedded start, existing\b.*rss/i },
  { what: 'server RSS after a day-like session, after GC, vs idle', target: 'within 20 %', pattern: /^server rss after (a day-like session|[0-9,]+ mixed operations)/i },
  { what: 'skills/list over MCP, 1,000 skills, vs the same listing over GraphQL (issue 19)', target: '≤ 1.5×', pattern: /^skills\/list over MCP\b/i },
  { what: '`vance lint` start, one file', target: '< 1 s', pattern: /^vance lint\b/i },
  { what: '`vance eval`, 1,000 skills × 10 cases, total, vs the same cases through the API (issue 20)', target: '< 2 s', pattern: /^vance eval\b.*\btotal\b/i },
];
