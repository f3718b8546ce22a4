/** Flags of this process that a worker thread refuses (`npm start` runs `--no-node-snapshot`). */
const PROCESS_ONLY_FLAGS: ReadonlySet<string> = new Set(['--no-node-snapshot']);

/** This process's flags that a worker thread (the validation pool, the PGlite thread) inherits. */
export function inheritedWorkerFlags(): string[] {
  return process.execArgv.filter((flag) => !PROCESS_ONLY_FLAGS.has(flag));
}
