import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { inheritedWorkerFlags } from './worker-flags';

describe('inheritedWorkerFlags', () => {
  // npm start runs node with both (issue 18): a worker given either fails to start.
  it('drops the flags a worker thread refuses, with or without a value, and keeps the rest', () => {
    expect(inheritedWorkerFlags(['--no-node-snapshot', '--max-semi-space-size=4', '--require', 'x.cjs', '--enable-source-maps']))
      .toEqual(['--require', 'x.cjs', '--enable-source-maps']);
  });

  it('a worker started with what is left of npm start’s flags runs', async () => {
    const worker = new Worker('require("node:worker_threads").parentPort.postMessage("up")', {
      eval: true, execArgv: inheritedWorkerFlags(['--no-node-snapshot', '--max-semi-space-size=4']),
    });
    const first = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
    await worker.terminate();
    expect(first).toBe('up');
  });
});
