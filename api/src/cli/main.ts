/**
 * `vance` — the command line for skill and recipe authors.
 *   vance lint [--json] <dir>…   load every SKILL.md and recipe under the folders (or the files
 *                                named) and print the diagnostics as `file:line:col severity message`,
 *                                paths as given; a path that cannot be read is one error line; exit 1
 *                                on errors.
 *   vance eval [--json] [dir]…   run every skill's evals.yaml (issue 20) against the skills under the
 *                                folders (default: the current one): one line per case (`file:line pass|FAIL …` and the turn's
 *                                verdict sentence), a summary per skill (precision, recall,
 *                                confusions); exit 1 when a case fails or an evals file is invalid.
 *                                `picked:` cases ask the model of VANCE_DEFAULT_SETTINGS
 *                                (ai.default.provider/model), skipped when none is configured.
 */
import { loadConfig } from '../config';
import { modelPickJudge } from '../domain/activation/model-pick-judge';
import type { ModelProvider } from '../domain/llm/model-provider';
import { StaticSettings } from '../domain/settings/settings-reader';
import { evaluate, formatEvalText } from './eval';
import { builtinToolDescriptors } from '../domain/tools/builtin/create-builtin-tools';
import { StaticToolCatalog } from '../domain/tools/tool-descriptor';
import { RecheckAnalyser } from '../regex-analysis';
import { NunjucksTemplateEngine } from '../templates';
import { createDocumentValidator } from '../validation/document-validators';
import { formatJson, formatText, lint } from './lint';

const USAGE = 'usage: vance lint [--json] <dir>…\n       vance eval [--json] [<dir>…]';

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'lint' && command !== 'eval') {
    console.error(command === undefined || command === '--help' || command === '-h' ? USAGE : `unknown command '${command}'\n${USAGE}`);
    return command === '--help' || command === '-h' ? 0 : 2;
  }
  const json = rest.includes('--json');
  const unknown = rest.filter((a) => a.startsWith('-') && a !== '--json');
  const given = rest.filter((a) => !a.startsWith('-'));
  // `vance eval` with no path runs the folder it is started in; `vance lint` asks for one.
  const roots = given.length === 0 && command === 'eval' ? ['.'] : given;
  if (unknown.length > 0 || roots.length === 0) {
    console.error(unknown.length > 0 ? `unknown option ${unknown.join(' ')}\n${USAGE}` : USAGE);
    return 2;
  }
  if (command === 'eval') return runEval(roots, json);
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

/**
 * The AI SDK provider, loaded on the first model call (`picked:` cases with a configured provider
 * only: `vance eval` without one, and `vance lint`, never load the SDK). `require`, not `import()`:
 * run from source, the CLI is under tsx's CommonJS hook, which an `import()` would bypass.
 */
function lazyAiSdkProvider(): ModelProvider {
  let provider: ModelProvider | undefined;
  return {
    async *stream(request) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      provider ??= new (require('../llm/ai-sdk-provider') as typeof import('../llm/ai-sdk-provider')).AiSdkProvider();
      yield* provider.stream(request);
    },
  };
}

async function runEval(roots: readonly string[], json: boolean): Promise<number> {
  const judge = modelPickJudge(lazyAiSdkProvider(), new StaticSettings(loadConfig().defaultSettings));
  const run = await evaluate(roots, await judge);
  console.log(json ? JSON.stringify(run, null, 2) : formatEvalText(run));
  return run.failed > 0 ? 1 : 0;
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
