/**
 * A test double for the network between Vance and PostgreSQL: a TCP proxy on 127.0.0.1 that passes
 * bytes through, and on `outage()` drops every open connection and refuses new ones for a while —
 * either by closing each at once (`close`) or by not listening at all (`refuse`: ECONNREFUSED) —
 * then accepts again on the same port. `loseNextReply()` lets the database answer the next statement
 * and drops that answer with its connection: the write committed, its client hears only the loss.
 * `hold()` keeps what the database sends in the proxy until `release()` (a slow network: a NOTIFY
 * that is on its way).
 */
import net from 'node:net';

export type OutageMode = 'close' | 'refuse';

export interface PgProxy {
  /** `target`'s URL with the proxy's host and port. */
  readonly url: string;
  /** Connections accepted and passed through so far; connections turned away during outages. */
  readonly stats: { passed: number; dropped: number; turnedAway: number };
  /** Drops every connection, turns new ones away for `ms`, then passes them again. */
  outage(ms: number, mode: OutageMode): Promise<void>;
  /** The next bytes the database sends (on any connection) are dropped, and their connection with them. */
  loseNextReply(): void;
  /** Until release(), what the database sends waits in the proxy (in order). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startPgProxy(target: string): Promise<PgProxy> {
  const upstream = new URL(target);
  const open = new Set<net.Socket>();
  const stats = { passed: 0, dropped: 0, turnedAway: 0 };
  let down = false;
  let loseReply = false;
  let held: Array<() => void> | null = null;
  const server = net.createServer((client) => {
    if (down) {
      stats.turnedAway++;
      client.destroy();
      return;
    }
    stats.passed++;
    const database = net.connect(Number(upstream.port || 5432), upstream.hostname);
    for (const [a, b] of [[client, database], [database, client]] as const) {
      open.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
    }
    client.pipe(database);
    database.on('data', (chunk: Buffer) => {
      if (loseReply) {
        loseReply = false;
        stats.dropped++;
        return void database.destroy();
      }
      const forward = () => {
        if (!client.write(chunk)) {
          database.pause();
          client.once('drain', () => database.resume());
        }
      };
      if (held) held.push(forward);
      else forward();
    });
  });
  const listen = (port: number) => new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
  const port = await listen(0);
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const dropAll = () => {
    stats.dropped += open.size / 2;
    for (const socket of open) socket.destroy();
  };
  return {
    url: url.toString(),
    stats,
    async outage(ms, mode) {
      down = true;
      // Not listening: a connect is refused by the kernel. The close callback waits for the dropped connections.
      const closed = mode === 'refuse' ? new Promise((resolve) => server.close(resolve)) : null;
      dropAll();
      await closed;
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (mode === 'refuse') await listen(port);
      down = false;
    },
    loseNextReply() {
      loseReply = true;
    },
    hold() {
      held ??= [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const forward of waiting) forward();
    },
    async close() {
      dropAll();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
