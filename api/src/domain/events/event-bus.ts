/**
 * Publish/subscribe between the parts of one instance and, through the adapter, across instances
 * (PostgreSQL LISTEN/NOTIFY). Payloads are plain JSON-able data.
 */
export type Unsubscribe = () => void;

export interface EventBus {
  publish<T>(topic: string, payload: T): Promise<void>;
  subscribe<T>(topic: string, handler: (payload: T) => void): Unsubscribe;
  close(): Promise<void>;
}
