// The attack process of support/attack-process.ts: reads one JSON line per command on stdin
// (`prepare` keeps a request body, `send` posts it to the URL given as argument, `spin` computes for
// `ms` without any request: the bench's control for what one more busy process costs the machine)
// and answers each with a JSON line carrying the same id.
import { createInterface } from 'node:readline';

const [url = ''] = process.argv.slice(2);
const prepared: { body: string; token: string | null }[] = [];
const reply = (message: object): void => void process.stdout.write(`${JSON.stringify(message)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const command = JSON.parse(line) as { id: number; op: string; body?: string; token?: string | null; request?: number; ms?: number };
  if (command.op === 'ping') return reply({ id: command.id });
  if (command.op === 'spin') {
    const until = performance.now() + (command.ms ?? 0);
    let x = 0;
    while (performance.now() < until) x = (x * 31 + 7) % 1_000_003;
    return reply({ id: command.id, x });
  }
  if (command.op === 'prepare') {
    prepared.push({ body: command.body ?? '', token: command.token ?? null });
    return reply({ id: command.id, request: prepared.length - 1 });
  }
  const request = prepared[command.request ?? -1];
  if (!request) return reply({ id: command.id, answer: { errors: [{ message: 'no such request' }] } });
  void fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(request.token ? { authorization: `Bearer ${request.token}` } : {}) },
    body: request.body,
  })
    .then(async (res) => {
      const text = await res.text();
      try {
        return JSON.parse(text) as object;
      } catch {
        return { errors: [{ message: `HTTP ${res.status}: ${text.slice(0, 200)}` }] };
      }
    })
    .catch((err: unknown) => ({ errors: [{ message: `fetch failed: ${(err as Error).message}` }] }))
    .then((answer) => reply({ id: command.id, answer }));
});
