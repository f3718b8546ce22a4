/* global require, process, setTimeout, BroadcastChannel */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS file preloaded with --require */
// Bench only (embedded-start.ts preloads it with --require): on SIGUSR2, a full GC of the server's
// main heap and of its worker threads' heaps (PGlite's, the validation pool's), then
// `gc-done <process.memoryUsage() as JSON>` on stderr (what of the RSS is the main thread's heap and
// buffers) and one `gc-thread <name> <heap statistics as JSON>` line per worker thread. Never loaded
// by `npm start`, so production has no GC hook.
const { isMainThread, threadId } = require('node:worker_threads');
const { setFlagsFromString, getHeapStatistics } = require('node:v8');
const { runInNewContext } = require('node:vm');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
// Worker threads inherit the server's flags, --require included; signals reach the main thread only,
// so it asks the threads over a BroadcastChannel.
const channel = new BroadcastChannel('vance-bench-gc');
channel.unref();
if (isMainThread) {
  process.on('SIGUSR2', () => {
    channel.postMessage('gc');
    gc();
    // A second pass after a while: finalizers (isolates, external copies) free what they hold.
    setTimeout(() => {
      gc();
      process.stderr.write(`gc-done ${JSON.stringify(process.memoryUsage())}\n`);
    }, 200);
  });
} else {
  channel.onmessage = () => {
    gc();
    setTimeout(() => {
      gc();
      const { total_heap_size, used_heap_size, external_memory, malloced_memory } = getHeapStatistics();
      process.stderr.write(`gc-thread ${threadId} ${JSON.stringify({ total_heap_size, used_heap_size, external_memory, malloced_memory })}\n`);
    }, 100);
  };
}
