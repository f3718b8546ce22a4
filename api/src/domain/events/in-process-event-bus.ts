import type { EventBus, Unsubscribe } from './event-bus';

/** The single-instance bus (embedded database); handlers run synchronously in publish order. */
export class InProcessEventBus implements EventBus {
  private readonly handlers = new Map<string, Set<(payload: unknown) => void>>();

  async publish<T>(topic: string, payload: T): Promise<void> {
    for (const handler of [...(this.handlers.get(topic) ?? [])]) handler(payload);
  }

  /**
   * A committed event of this instance (the stores announce their writes through it): every
   * subscriber, each on its own — a throwing subscriber neither stops the others nor reaches the writer.
   */
  deliverLocal(topic: string, payload: unknown, onError: (err: unknown) => void = () => {}): void {
    for (const handler of [...(this.handlers.get(topic) ?? [])]) {
      try {
        handler(payload);
      } catch (err) {
        onError(err);
      }
    }
  }

  subscribe<T>(topic: string, handler: (payload: T) => void): Unsubscribe {
    const set = this.handlers.get(topic) ?? new Set();
    this.handlers.set(topic, set);
    const h = handler as (payload: unknown) => void;
    set.add(h);
    return () => set.delete(h);
  }

  /** One instance, nothing crosses a wire: no event is ever missed. */
  onMissedEvents(): Unsubscribe {
    return () => {};
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
