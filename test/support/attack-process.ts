// The client side of an attack in its own process (issue 13's bench): building, sending and reading
// a multi-megabyte request costs the sender CPU, and a sender that shares the server's event loop
// measures its own work as the server's. Requests are handed over (`prepare`) before any timing;
// `send` then only posts the prepared bytes and resolves with the answer.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

const CLIENT = path.join(__dirname, 'attack-client.ts');

export interface GqlAnswer { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] }

export interface PreparedRequest {
  /** Posts the request from the attack process; resolves with its parsed answer. */
  send(): Promise<GqlAnswer>;
}

export interface Attacker {
  prepare(query: string, variables: Record<string, unknown>, token: string | null): Promise<PreparedRequest>;
  /** Computes for `ms` in the attack process, sending nothing: a busy neighbour, not an attack. */
  spin(ms: number): Promise<void>;
  stop(): void;
}

export async function startAttacker(url: string): Promise<Attacker> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLIENT, url], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<number, (line: any) => void>();
  let next = 0;
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    const message = JSON.parse(line) as { id: number };
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  child.once('exit', () => {
    for (const resolve of waiting.values()) resolve({ answer: { errors: [{ message: 'the attack process ended' }] } });
    waiting.clear();
  });
  const call = (message: object): Promise<any> => new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    child.stdin.write(`${JSON.stringify({ ...message, id })}\n`);
  });
  await call({ op: 'ping' });
  return {
    prepare: async (query, variables, token) => {
      const { request } = (await call({ op: 'prepare', body: JSON.stringify({ query, variables }), token })) as { request: number };
      return { send: async () => ((await call({ op: 'send', request })) as { answer: GqlAnswer }).answer };
    },
    spin: async (ms) => void (await call({ op: 'spin', ms })),
    stop: () => {
      if (child.exitCode === null) child.kill();
    },
  };
}
