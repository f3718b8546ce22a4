/**
 * One bench of the suite, in a process of its own (started by all.ts with an IPC channel): imports
 * the bench file named by argv[2], runs its `runBench` (tiny with BENCH_TINY=1) and sends every
 * SummaryRow to the runner as it is reported. The tables go to stdout as when the bench runs alone.
 * Exits explicitly, like runAsScript: a closed server may leave a handle open for a while.
 */
import path from 'node:path';
import type { Bench, SummaryRow } from './harness';

export type RunOneMessage = { readonly summary: SummaryRow } | { readonly error: string };

function send(message: RunOneMessage): Promise<void> {
  return new Promise((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()));
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: run-one.ts <bench file>');
  const module = (await import(path.resolve(__dirname, file))) as { runBench?: Bench };
  if (typeof module.runBench !== 'function') throw new Error(`${file} exports no runBench(options)`);
  const pending: Promise<void>[] = [];
  await module.runBench({ tiny: process.env.BENCH_TINY === '1', summary: (row) => void pending.push(send({ summary: row })) });
  await Promise.all(pending);
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error(error);
    await send({ error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  },
);
