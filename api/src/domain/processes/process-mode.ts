/**
 * The plan mode of a process (seed 004 §5.1: the render context's `mode`). Stored on the process
 * (setProcessMode), read by every later turn's render; a new process starts in NORMAL.
 */
import { InvalidInputError } from '../errors';

export const PROCESS_MODES = ['NORMAL', 'EXPLORING', 'PLANNING', 'EXECUTING'] as const;
export type ProcessMode = (typeof PROCESS_MODES)[number];

export const DEFAULT_PROCESS_MODE: ProcessMode = 'NORMAL';

export function isProcessMode(value: unknown): value is ProcessMode {
  return typeof value === 'string' && (PROCESS_MODES as readonly string[]).includes(value);
}

/** The mode named by `value`, or a typed error naming the field. */
export function processMode(value: unknown, field = 'mode'): ProcessMode {
  if (isProcessMode(value)) return value;
  throw new InvalidInputError('INVALID_PROCESS_MODE', `${field} must be one of ${PROCESS_MODES.join(', ')}; got ${JSON.stringify(value)}`, field);
}
