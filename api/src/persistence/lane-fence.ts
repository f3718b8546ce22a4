/**
 * The fencing token of the lane job that is running (issue 14), for the stores' writes. PgLeaseLock
 * runs each job inside `laneFence.run`; a store writing a turn's rows of that very process adds the
 * fence to its statement — the lease row must still carry this token, read FOR SHARE so that a
 * takeover waits for the write's commit — and a write that finds another token is refused with
 * LeaseLostError. Outside a lease (the embedded database, work off any lane) there is no fence.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface LaneFence {
  readonly key: string;
  readonly token: string;
}

export const laneFence = new AsyncLocalStorage<LaneFence>();

/** The lease was taken over: this instance no longer runs the lane, and its write changed nothing. */
export class LeaseLostError extends Error {
  constructor(readonly key: string, readonly token: string) {
    super(`The lane of '${key}' was taken over by another instance (lease ${token} lost); this write was refused.`);
    this.name = 'LeaseLostError';
  }
}

/** The token to fence a write of `key`'s rows with, or null when the running job holds no lease on it. */
export function fenceTokenFor(key: string): string | null {
  const fence = laneFence.getStore();
  return fence && fence.key === key ? fence.token : null;
}

/**
 * SQL that holds when the write may go ahead: no fence ($token null), or the lease of $key still
 * carries $token (locked FOR SHARE until the statement's transaction ends). `key` and `token` are
 * the placeholders of the two parameters, e.g. `$2::text` and `$9`.
 */
export function fenceHolds(key: string, token: string): string {
  return `(${token}::bigint IS NULL OR EXISTS (SELECT 1 FROM lane_leases WHERE lane_key = ${key} AND token = ${token}::bigint FOR SHARE))`;
}
