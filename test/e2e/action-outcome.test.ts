/** The dashboard's steering toasts (admin/src/processes/actionOutcome.ts) say what the API answered (issue 17). */
import { describe, expect, it } from 'vitest';
import { activationOutcome, clearOutcome } from '../../admin/src/processes/actionOutcome';

describe('steering toasts follow the result', () => {
  it('names what an activation did', () => {
    expect(activationOutcome('code-guard', { outcome: 'ACTIVATED', reason: '' })).toEqual({ message: 'Activated code-guard', type: 'info' });
    expect(activationOutcome('code-guard', { outcome: 'UPDATED', reason: '' }).message).toBe('code-guard was already active: its arguments were updated');
    expect(activationOutcome('lint', { outcome: 'FIRED', reason: 'shot skill' }).message).toBe('Ran lint once (shot skill)');
  });

  it('does not call a kept skill cleared', () => {
    expect(clearOutcome({ cleared: ['a'], kept: [] })).toEqual({ message: 'Cleared a', type: 'info' });
    expect(clearOutcome({ cleared: [], kept: ['code-guard'] })).toEqual({ message: 'Nothing cleared; kept code-guard (the recipe is locked)', type: 'warning' });
  });
});
