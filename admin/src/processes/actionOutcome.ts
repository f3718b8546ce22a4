/**
 * The message a steering action's result earns (issue 17: a toast says what happened, not what was
 * asked). activateSkill answers how it went (ACTIVATED, UPDATED, FIRED, SPAWNED); clearSkills
 * which skills it cleared and which a locked recipe kept — "Cleared" for a kept skill was false.
 */
export interface Outcome {
  readonly message: string;
  readonly type: 'info' | 'warning';
}

export function activationOutcome(name: string, result: { outcome: string; reason: string }): Outcome {
  const what: Record<string, string> = {
    ACTIVATED: `Activated ${name}`,
    UPDATED: `${name} was already active: its arguments were updated`,
    FIRED: `Ran ${name} once`,
    SPAWNED: `${name} went to a new worker`,
  };
  const head = what[result.outcome] ?? `${name}: ${result.outcome}`;
  return { message: result.reason ? `${head} (${result.reason})` : head, type: 'info' };
}

export function clearOutcome(result: { cleared: string[]; kept: string[] }): Outcome {
  const cleared = result.cleared.length ? `Cleared ${result.cleared.join(', ')}` : 'Nothing cleared';
  if (!result.kept.length) return { message: cleared, type: 'info' };
  return { message: `${cleared}; kept ${result.kept.join(', ')} (the recipe is locked)`, type: 'warning' };
}
