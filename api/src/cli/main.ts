/**
 * `vance` — the command line for skill and recipe authors.
 *   vance lint [--json] <dir>…   load every SKILL.md and recipe under the folders (or the files
 *                                named) and print the diagnostics as `file:line:col severity message`,
 *                                paths as given; a path that cannot be read is one error line; exit 1
 *                                on errors.
 */
import { builtinToolDescriptors } from '../domain/tools/builtin/create-builtin-tools';
import { StaticToolCatalog } from '../domain/tools/tool-descriptor';
import { RecheckAnalyser } from '../regex-analysis';
import { NunjucksTemplateEngine } from '../templates';
import { createDocumentValidator } from '../validation/document-validators';
import { formatJson, formatText, lint } from './lint';

const USAGE = 'usage: vance lint [--json] <dir>…';

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'lint') {
    console.error(command === undefined || command === '--help' || command === '-h' ? USAGE : `unknown command '${command}'\n${USAGE}`);
    return command === '--help' || command === '-h' ? 0 : 2;
  }
  const json = rest.includes('--json');
  const unknown = rest.filter((a) => a.startsWith('-') && a !== '--json');
  const roots = rest.filter((a) => !a.startsWith('-'));
  if (unknown.length > 0 || roots.length === 0) {
    console.error(unknown.length > 0 ? `unknown option ${unknown.join(' ')}\n${USAGE}` : USAGE);
    return 2;
  }
  // Only syntax checks happen here (no rendering), so the in-process engine is enough.
  const templates = new NunjucksTemplateEngine({ sandbox: 'in-process' });
  // An author's own run: a patient analysis (a second per pattern), no per-minute budget to share.
  const backtracking = new RecheckAnalyser({ timeoutMs: 1_000, budgetMsPerMinute: 60_000 });
  // Tool entries are checked against the built-in catalog: a folder is linted without a server.
  const validator = createDocumentValidator(templates, backtracking, new StaticToolCatalog(builtinToolDescriptors()));
  const report = await lint(roots, validator);
  console.log(json ? formatJson(report) : formatText(report));
  return report.errors > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 2;
  },
);
