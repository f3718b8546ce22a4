/**
 * Flags of this process that a worker thread refuses (ERR_WORKER_INVALID_EXEC_ARGV): `npm start`
 * runs `--no-node-snapshot` and `--max-semi-space-size` (a V8 heap flag, which V8 applies to every
 * isolate of the process, workers included, anyway).
 */
const PROCESS_ONLY_FLAGS: ReadonlySet<string> = new Set(['--no-node-snapshot', '--max-semi-space-size']);

/** This process's flags that a worker thread (the validation pool, the PGlite thread) inherits. */
export function inheritedWorkerFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return execArgv.filter((flag) => !PROCESS_ONLY_FLAGS.has(flag.split('=')[0]!));
}
