/* global require, process, setTimeout */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file preloaded with --require */
// Bench only (embedded-start.ts preloads it with --require): on SIGUSR2, a full GC of the server's
// main heap, then `gc-done <process.memoryUsage() as JSON>` on stderr (what of the RSS is the main
// thread's heap and buffers). Never loaded by `npm start`, so production has no GC hook.
const { isMainThread } = require('node:worker_threads');
const { setFlagsFromString } = require('node:v8');
const { runInNewContext } = require('node:vm');

// Worker threads inherit the server's flags, --require included; signals reach the main thread only.
if (isMainThread) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  process.on('SIGUSR2', () => {
    gc();
    // A second pass after a while: finalizers (isolates, external copies) free what they hold.
    setTimeout(() => {
      gc();
      process.stderr.write(`gc-done ${JSON.stringify(process.memoryUsage())}\n`);
    }, 200);
  });
}
