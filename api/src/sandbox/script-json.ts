/**
 * Host-side checks on JSON text that crossed the script-sandbox boundary (DESIGN §6: copies with size
 * and depth caps). They run on the host, on plain strings, so nothing a script does to its own
 * prototypes can weaken them; the guest-side checks in script-bootstrap.ts only avoid copying.
 */

/** Longest guest or host message kept in an error (the model reads it; a log line stays short). */
export const MAX_MESSAGE_CHARS = 2_000;

export { jsonDepthExceeds } from '../domain/shared/json-bounds';

/** Cuts a message to `max` characters, saying that it did. */
export function capText(text: string, max = MAX_MESSAGE_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/** The message of something a host function threw, without calling anything on a non-Error. */
export function hostErrorMessage(error: unknown): string {
  if (error instanceof Error) return capText(error.message || error.name);
  if (typeof error === 'string') return capText(error);
  return 'the host function failed with a non-Error value';
}
