import type { EventBus, SubscribeOptions, Unsubscribe } from './event-bus';
import { TopicHandlers } from './topic-handlers';

/** The single-instance bus (embedded database); handlers run synchronously in publish order. */
export class InProcessEventBus implements EventBus {
  private readonly handlers = new Map<string, TopicHandlers<(payload: unknown) => void>>();

  async publish<T>(topic: string, payload: T): Promise<void> {
    for (const handler of this.handlers.get(topic)?.for(payload) ?? []) handler(payload);
  }

  /**
   * A committed event of this instance (the stores announce their writes through it): every
   * subscriber, each on its own — a throwing subscriber neither stops the others nor reaches the writer.
   */
  deliverLocal(topic: string, payload: unknown, onError: (err: unknown) => void = () => {}): void {
    for (const handler of this.handlers.get(topic)?.for(payload) ?? []) {
      try {
        handler(payload);
      } catch (err) {
        onError(err);
      }
    }
  }

  subscribe<T>(topic: string, handler: (payload: T) => void, options: SubscribeOptions = {}): Unsubscribe {
    const handlers = this.handlers.get(topic) ?? new TopicHandlers();
    this.handlers.set(topic, handlers);
    // A wrapper of its own per subscription: one function may be subscribed twice.
    const remove = handlers.add((payload) => handler(payload as T), options.route);
    return () => {
      remove();
      if (handlers.size === 0 && this.handlers.get(topic) === handlers) this.handlers.delete(topic);
    };
  }

  /** One instance, nothing crosses a wire: no event is ever missed. */
  onMissedEvents(): Unsubscribe {
    return () => {};
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
