/**
 * Which MCP sessions were left behind (issue 19): a client that goes away without DELETE leaves its
 * session — the SDK's server and transport — open for good, bounded only by the per-token cap. A
 * session is idle when none of its requests is open (a client listening on its GET stream for
 * list-changed notifications keeps its session) and its last request ended `idleMs` ago. The clock
 * is a parameter so the rule is tested without waiting.
 */
interface Seen {
  last: number;
  open: number;
}

export class IdleSessions<K> {
  private readonly seen = new Map<K, Seen>();

  constructor(private readonly idleMs: number, private readonly now: () => number = Date.now) {}

  add(key: K): void {
    this.seen.set(key, { last: this.now(), open: 0 });
  }

  remove(key: K): void {
    this.seen.delete(key);
  }

  /** A request of the session starts; the returned function ends it (once, however often called). */
  begin(key: K): () => void {
    const seen = this.seen.get(key);
    if (!seen) return () => {};
    seen.open++;
    seen.last = this.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      seen.open--;
      seen.last = this.now();
    };
  }

  /** The sessions without an open request whose last one ended at least `idleMs` ago. */
  expired(): K[] {
    const now = this.now();
    return [...this.seen].filter(([, seen]) => seen.open === 0 && now - seen.last >= this.idleMs).map(([key]) => key);
  }
}
