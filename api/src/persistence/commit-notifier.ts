/**
 * Events committed with their data (issue 14, DESIGN §7). A store that writes an event adds its
 * `pg_notify` to the very statement (or transaction) that writes the event's data: PostgreSQL
 * delivers a NOTIFY when, and only when, its transaction commits. So a write that failed announced
 * nothing, and a write that committed cannot be reported as failed by a publish after it (before:
 * `putDocument`, `sendMessage` and the turn's events answered INTERNAL_SERVER_ERROR when the bus
 * was reconnecting, although they had been applied). This instance's own subscribers are told after
 * the commit, in process, which cannot fail; the NOTIFY's echo is skipped by its `origin`.
 *
 * On the embedded database (one instance, InProcessEventBus) there is no channel: nothing crosses a
 * wire, and local delivery after the commit is all there is.
 */
import type { InProcessEventBus } from '../domain/events/in-process-event-bus';
import { isConnectionLoss } from './connection-loss';

export interface CommitNotifier {
  /** The NOTIFY channel of the bus, or null when the bus is in-process. */
  readonly channel: string | null;
  /** This instance's id in every envelope, so that it skips the echo of its own NOTIFY. */
  readonly origin: string;
  /** Delivers a committed event to this instance's subscribers (never throws). */
  deliverLocal(topic: string, payload: unknown): void;
  /**
   * A write that carried events lost its connection before its answer: it may have committed, and
   * then the other instances heard its NOTIFY while this one (which skips its own echo) heard
   * nothing. This instance's subscribers re-read the store (never throws).
   */
  mayHaveMissed(): void;
}

/** Without a bus (store tests): writes are stored and announced to nobody. */
export const SILENT_NOTIFIER: CommitNotifier = { channel: null, origin: 'silent', deliverLocal: () => {}, mayHaveMissed: () => {} };

/**
 * Runs a write that announces events; when its connection is lost (the outcome is open), tells the
 * notifier before the error goes on. Seen in the fault suite: a turn's TurnFinished committed, its
 * reply was lost, and the subscribers on the writing instance never saw it.
 */
export async function announcedWrite<T>(notifier: CommitNotifier, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isConnectionLoss(err)) notifier.mayHaveMissed();
    throw err;
  }
}

/** A timestamptz column as the ISO text JavaScript's toISOString() gives (UTC, milliseconds), in SQL. */
export function isoTimeSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The notifier of an in-process bus: no channel, local delivery only. */
export function inProcessNotifier(bus: InProcessEventBus, onError: (err: unknown) => void = () => {}): CommitNotifier {
  // One process, one embedded database: no reply is lost on a wire.
  return { channel: null, origin: 'local', deliverLocal: (topic, payload) => bus.deliverLocal(topic, payload, onError), mayHaveMissed: () => {} };
}

/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; a larger envelope goes out as its id
 * only. (The envelope's own fields come on top of the payload's MAX_INLINE_PAYLOAD_BYTES.)
 */
export const NOTIFY_INLINE_BYTES = 7_000;

/**
 * A CTE `name` that sends one NOTIFY per row of `source` in `orderBy` order, each carrying
 * `{ t: topic, o: origin, p: <payload> }` — `payload` when its text fits, else `slim` (the event
 * without its payload, for subscribers to load by id). The statement must reference the CTE (e.g.
 * `(SELECT count(*) FROM name)`): PostgreSQL skips an unreferenced SELECT CTE. `channel`, `topic`,
 * `origin` are placeholders ($n); with a null channel nothing is sent. pg_notify is volatile, so it
 * runs after the ORDER BY: the other instances get the events in id order.
 */
export function notifyCte(
  name: string, source: string, args: { channel: string; topic: string; origin: string }, payload: string, slim: string, orderBy: string,
): string {
  const envelope = (p: string) => `jsonb_build_object('t', ${args.topic}::text, 'o', ${args.origin}::text, 'p', ${p})::text`;
  return `${name} AS (SELECT pg_notify(${args.channel}::text,
      CASE WHEN octet_length(${envelope(payload)}) <= ${NOTIFY_INLINE_BYTES} THEN ${envelope(payload)} ELSE ${envelope(slim)} END) AS sent
    FROM (SELECT * FROM ${source} ORDER BY ${orderBy}) s WHERE ${args.channel}::text IS NOT NULL)`;
}
