// Starts support/ws-flood.ts in its own process and waits until it is connected; `flood()` then sends
// its burst and resolves with the flood's report. Shared by the budgets test and bench:abuse.
import { spawn } from 'node:child_process';
import path from 'node:path';

const FLOOD = path.join(__dirname, 'ws-flood.ts');

export interface FloodReport {
  readonly refusals: Record<string, number>;
  readonly answered: number;
  readonly closed: boolean;
}

export interface Flooder {
  /** Sends the burst; resolves with the flood's report (within 20 s of sending, whatever the server does). */
  flood(): Promise<FloodReport>;
  /** Ends the flood process if it has not flooded. */
  stop(): void;
}

export async function connectFlood(wsUrl: string, token: string, count: number, query: string): Promise<Flooder> {
  const child = spawn(process.execPath, ['--import', 'tsx', FLOOD, wsUrl, token, String(count), query], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.startsWith('ready\n')) resolve();
    });
    void exited.then(() => reject(new Error(`the flood process ended before it connected: ${out}`)));
  });
  return {
    flood: async () => {
      child.stdin.write('go\n');
      await exited;
      return JSON.parse(out.slice('ready\n'.length)) as FloodReport;
    },
    stop: () => {
      if (child.exitCode === null) child.kill();
    },
  };
}
