/**
 * The engine-command channel (seed 000 §2a): notation, dispatcher, the `guard` family and the
 * activate/deactivate sequence runner. Pure: handlers return patches, the lane persists them.
 */
import { CommandDispatcher } from './command-dispatcher';
import { guardCommand } from './guard-command';

export * from './engine-command';
export * from './command-dispatcher';
export * from './guard-command';
export * from './command-sequence';
export * from './command-check';
export * from './command-denied';

/** A dispatcher with every shipped verb (today: `guard`). */
export function createEngineCommandDispatcher(): CommandDispatcher {
  return new CommandDispatcher([guardCommand]);
}
