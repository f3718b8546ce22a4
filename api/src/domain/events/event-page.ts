/**
 * A page of stored events read by a query (turnEventLog, processEventLog): the subscriptions'
 * stored part without a subscription, for pages that show a process's history (the activation log).
 * Ids are the stored events' increasing bigint ids; a bad one is refused rather than read as "from
 * the start", so a client that pages on a wrong id learns it instead of looping.
 */
import { InvalidInputError } from '../errors';

export const EVENT_PAGE_DEFAULT = 200;
export const EVENT_PAGE_MAX = 1000;

export interface EventPage {
  readonly afterEventId: string | null;
  readonly limit: number;
}

export function eventPage(afterEventId: string | null | undefined, limit: number | null | undefined): EventPage {
  if (afterEventId != null && !/^\d{1,19}$/.test(afterEventId)) {
    throw new InvalidInputError('INVALID_EVENT_ID', `afterEventId '${afterEventId.slice(0, 40)}' is not an event id (a stored event's decimal id)`, 'afterEventId');
  }
  if (limit != null && (!Number.isInteger(limit) || limit < 1 || limit > EVENT_PAGE_MAX)) {
    throw new InvalidInputError('INVALID_LIMIT', `limit must be between 1 and ${EVENT_PAGE_MAX}, not ${limit}`, 'limit');
  }
  return { afterEventId: afterEventId ?? null, limit: limit ?? EVENT_PAGE_DEFAULT };
}
