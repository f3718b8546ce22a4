// A graphql-ws client in its own process that sends COUNT subscribe messages at once on one socket
// and reports how the server answered (issue 13): the flood must not share the event loop of the
// server it floods, or the test would measure its own sending. Usage:
//   node --import tsx ws-flood.ts <ws-url> <token> <count> <query>   → prints {"refusals":{limit:n},"answered":n,"closed":bool}
// Once connected it prints `ready` and floods when a line arrives on stdin, so that the caller can
// time the flood alone (not this process's start).
import WebSocket from 'ws';

const [url = '', token = '', countText = '0', query = ''] = process.argv.slice(2);
const count = Number(countText);
const socket = new WebSocket(url, 'graphql-transport-ws');
const refusals: Record<string, number> = {};
let answered = 0;
let done = false;
const finish = (closed: boolean): void => {
  if (done) return;
  done = true;
  process.stdout.write(`${JSON.stringify({ refusals, answered, closed })}\n`);
  socket.terminate();
  process.exit(0);
};
socket.on('message', (raw: Buffer) => {
  const message = JSON.parse(raw.toString()) as { type: string; id?: string; payload?: { message?: string; extensions?: { limit?: string } }[] };
  if (message.type === 'connection_ack') {
    process.stdout.write('ready\n');
    process.stdin.once('data', () => {
      // Whatever the server does, report within 20 s of the flood (a test or bench waits on this process).
      setTimeout(() => finish(false), 20_000);
      for (let i = 0; i < count; i++) socket.send(JSON.stringify({ id: `s${i}`, type: 'subscribe', payload: { query } }));
    });
  } else if (message.type === 'error' && message.id) {
    const limit = message.payload?.[0]?.extensions?.limit ?? message.payload?.[0]?.message ?? 'unknown';
    refusals[limit] = (refusals[limit] ?? 0) + 1;
    answered++;
  } else if (message.type === 'next' || message.type === 'complete') {
    answered++;
  }
});
socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
socket.on('close', () => finish(true));
// Subscriptions that were accepted never answer; once the refusals stop coming, report.
setInterval(() => { if (answered >= count - 3) finish(false); }, 20);
// The caller went away without asking for the flood.
process.stdin.once('end', () => process.exit(0));
