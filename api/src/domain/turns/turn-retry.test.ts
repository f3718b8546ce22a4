import { describe, expect, it } from 'vitest';
import type { TakenMessage } from './turn';
import { planRestore } from './turn-retry';

const policy = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 60_000 };
const message = (id: string, attempts = 0, failure: string | null = null): TakenMessage =>
  ({ id, seq: id, sender: 'USER', senderName: 'alice', content: `text ${id}`, createdAt: '2026-12-03T00:00:00.000Z', attempts, failure });

describe('planRestore (issue 14: a failed turn is retried with backoff, a message failing the same way 3 times is marked failed)', () => {
  it('counts a failure and retries after the base delay, doubling per attempt', () => {
    const first = planRestore([message('a')], { code: 'PROVIDER_ERROR', message: 'boom', counts: true }, policy);
    expect(first.messages[0]).toMatchObject({ attempts: 1, failure: 'PROVIDER_ERROR: boom', failed: false });
    expect(first.retryInMs).toBe(1_000);
    const second = planRestore([{ ...first.messages[0]! }], { code: 'PROVIDER_ERROR', message: 'boom again', counts: true }, policy);
    expect(second.messages[0]).toMatchObject({ attempts: 2, failed: false });
    expect(second.retryInMs).toBe(2_000);
  });

  it('marks a message failed at the third failure of the same kind, and retries nothing when nothing is left', () => {
    const plan = planRestore([message('a', 2, 'PROVIDER_ERROR: boom')], { code: 'PROVIDER_ERROR', message: 'boom', counts: true }, policy);
    expect(plan.messages[0]).toMatchObject({ attempts: 3, failed: true, failure: 'PROVIDER_ERROR: boom' });
    expect(plan.retryInMs).toBeNull();
  });

  it('starts the count again when the message fails another way', () => {
    const plan = planRestore([message('a', 2, 'PROVIDER_ERROR: boom')], { code: 'TIMEOUT', message: 'slow', counts: true }, policy);
    expect(plan.messages[0]).toMatchObject({ attempts: 1, failed: false, failure: 'TIMEOUT: slow' });
  });

  it('retries the rest of the input when one message of it failed for good', () => {
    const plan = planRestore([message('a', 2, 'X: y'), message('b')], { code: 'X', message: 'y', counts: true }, policy);
    expect(plan.messages.map((m) => [m.id, m.attempts, m.failed])).toEqual([['a', 3, true], ['b', 1, false]]);
    expect(plan.retryInMs).toBe(1_000);
  });

  it('does not count a transient failure or an interruption, and retries an interruption at once', () => {
    const transient = planRestore([message('a', 2, 'INTERNAL: x')], { code: 'INTERNAL', message: 'Connection terminated', counts: false }, policy);
    expect(transient.messages[0]).toMatchObject({ attempts: 2, failed: false, failure: 'INTERNAL: x' });
    expect(transient.retryInMs).toBe(2_000);
    const interrupted = planRestore([message('a')], { code: 'INTERRUPTED', message: 'stopped', counts: false }, policy);
    expect(interrupted.messages[0]).toMatchObject({ attempts: 0, failed: false });
    expect(interrupted.retryInMs).toBe(0);
  });

  it('caps the backoff', () => {
    const plan = planRestore([message('a', 30, 'X: y')], { code: 'X', message: 'y', counts: true }, { ...policy, maxAttempts: 100 });
    expect(plan.retryInMs).toBe(60_000);
  });
});
