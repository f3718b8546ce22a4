/**
 * Ids are uuid columns; a malformed id (from a client) would make PostgreSQL raise
 * "invalid input syntax for type uuid". Lookups check it first and answer "not found" instead.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
