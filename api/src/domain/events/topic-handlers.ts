/**
 * The handlers of one bus topic, found per event by its route key (issue 18, fan-out): a stream of
 * one process's events subscribes with a route, and an event reaches the handlers of its own key
 * only — one map lookup instead of every subscriber of the topic testing every event.
 */
export interface EventRoute {
  /** The key of an event, e.g. its tenant and process. One function per kind of route (a module constant): handlers are grouped by it. */
  readonly by: (payload: unknown) => string | undefined;
  /** The key this subscriber takes. */
  readonly key: string;
}

export class TopicHandlers<H> {
  private readonly unrouted = new Set<H>();
  private readonly routed = new Map<EventRoute['by'], Map<string, Set<H>>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds `handler` (for the events of `route.key` only, when given); returns its removal. */
  add(handler: H, route?: EventRoute): () => void {
    let set = this.unrouted;
    if (route) {
      let byKey = this.routed.get(route.by);
      if (!byKey) this.routed.set(route.by, (byKey = new Map()));
      set = byKey.get(route.key) ?? new Set();
      byKey.set(route.key, set);
    }
    set.add(handler);
    this.count++;
    return () => {
      if (!set.delete(handler)) return;
      this.count--;
      if (route && set.size === 0) {
        const byKey = this.routed.get(route.by);
        if (byKey?.get(route.key) === set) byKey.delete(route.key);
        if (byKey?.size === 0) this.routed.delete(route.by);
      }
    };
  }

  /** The handlers `payload` goes to, as a copy: a handler may subscribe or leave while it is delivered. */
  for(payload: unknown): H[] {
    const handlers = [...this.unrouted];
    for (const [by, byKey] of this.routed) {
      const key = by(payload);
      const set = key === undefined ? undefined : byKey.get(key);
      if (set) for (const handler of set) handlers.push(handler);
    }
    return handlers;
  }
}

/** The route of one process's events (turn events, process events: both carry tenantId and processId). */
export function processRoute(process: { readonly tenantId: string; readonly id: string }): EventRoute {
  return { by: processKey, key: `${process.tenantId}/${process.id}` };
}

function processKey(payload: unknown): string | undefined {
  const e = payload as { tenantId?: unknown; processId?: unknown } | null;
  return typeof e?.processId === 'string' && typeof e.tenantId === 'string' ? `${e.tenantId}/${e.processId}` : undefined;
}
