/**
 * Lets pending I/O run before more synchronous work. Used between CPU-bound steps of one request
 * (e.g. parsing each uncached SKILL.md of a scope), so their sum is not one long task that every
 * other tenant's request waits behind.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
