// Reads vitest's JSON report and prints one plain closing line, "Tests: N passed, N failed, N skipped",
// so a CI log states how many tests ran even though vitest's own summary is not a format the CI
// harness reads. Usage: node scripts/vitest-summary.mjs <report.json>
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/vitest-summary.mjs <report.json>');
  process.exit(2);
}

let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  console.error(`vitest-summary: no readable report at ${file} (${err.message})`);
  process.exit(1);
}

const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
