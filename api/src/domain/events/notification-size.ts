/**
 * How much of an event rides in a notification. PostgreSQL refuses a NOTIFY payload of 8,000 bytes
 * or more; an event whose payload is larger goes out without it, and subscribers load it by id.
 * One bound for turn and process events, here and in the SQL that sends them (commit-notifier.ts).
 */
export const MAX_INLINE_PAYLOAD_BYTES = 6_000;

const utf8 = new TextEncoder();

/** Whether `value`, as JSON, fits in a notification beside its envelope. */
export function fitsInline(value: unknown): boolean {
  return utf8.encode(JSON.stringify(value)).length <= MAX_INLINE_PAYLOAD_BYTES;
}
