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
/*
 * Each command loads its own modules when it runs (`vance eval` skips nunjucks, recheck and the tool
 * catalog, about 0.1 s of a start; `vance lint` skips the activation code): `require`, not `import()`,
 * which tsx's CommonJS hook would not see when the CLI runs from source.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const commands = {
  lint: () => (require('./lint-command') as typeof import('./lint-command')).runLint,
  eval: () => (require('./eval-command') as typeof import('./eval-command')).runEval,
};
/* eslint-enable @typescript-eslint/no-require-imports */

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
  return commands[command]()(roots, json);
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
