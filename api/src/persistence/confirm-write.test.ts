import { describe, expect, it } from 'vitest';
import { confirmedWrite, WriteOutcomeUnknownError } from './confirm-write';

const lost = () => Object.assign(new Error('Connection terminated unexpectedly'), {});
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

// Issue 14 (fault suite): a write whose connection was lost before its answer may have committed.
// Before: every such write answered INTERNAL_SERVER_ERROR, also when it had been applied.
describe('confirmedWrite', () => {
  it('answers the write as done when the database says it committed', async () => {
    const result = await confirmedWrite('w', async () => { throw lost(); }, async () => 'found');
    expect(result).toBe('found');
  });

  it('fails with the original error when the database says it did not commit', async () => {
    const err = lost();
    await expect(confirmedWrite('w', async () => { throw err; }, async () => null)).rejects.toBe(err);
  });

  it('asks again while the database is unreachable, then answers', async () => {
    let asked = 0;
    const result = await confirmedWrite('w', async () => { throw lost(); }, async () => {
      if (++asked < 3) throw refused();
      return 'found';
    }, { firstPauseMs: 1 });
    expect(result).toBe('found');
    expect(asked).toBe(3);
  });

  it('says the outcome is unknown, not failed, when the database never answers within the deadline', async () => {
    await expect(confirmedWrite('the write of x', async () => { throw lost(); }, async () => { throw refused(); }, { firstPauseMs: 1, deadlineMs: 20 }))
      .rejects.toBeInstanceOf(WriteOutcomeUnknownError);
  });

  it('leaves any other error alone, without asking', async () => {
    let asked = 0;
    const err = Object.assign(new Error('duplicate key'), { code: '23505' });
    await expect(confirmedWrite('w', async () => { throw err; }, async () => { asked++; return 'x'; })).rejects.toBe(err);
    expect(asked).toBe(0);
  });
});
