/**
 * What a recipe's engine and engine params will do when it runs, said at save (issue 15: validation
 * equals execution). The checks call the very functions the run uses — `isKnownEngine` (spawn
 * refuses other engines), `positiveInt` (the turn's iteration cap), `resolveSampling` (what reaches
 * the model) — so a value the run would drop or refuse is a diagnostic with its line, not a silent
 * default. Warnings, not errors: recipes written for other deployments (engines such as jeltz or
 * zaphod, real corpora) still load and list; they fail only where they would run.
 */
import { ENGINE_NAMES, isKnownEngine } from '../engines/engine-names';
import { positiveInt } from '../shared/positive-int';
import type { RecipeDiagnostics } from './recipe-diagnostics';
import { resolveSampling } from './sampling-params';

export function checkEngine(d: RecipeDiagnostics, raw: unknown, engine: string): void {
  if (engine === '') return;
  if (typeof raw !== 'string') d.warning(['engine'], `engine is a name such as ford or arthur, not ${typeof raw === 'number' ? 'a number' : typeof raw}; it is read as '${engine}'`);
  if (!isKnownEngine(engine)) {
    d.warning(['engine'], `engine '${engine}' does not run here (engines: ${ENGINE_NAMES.join(', ')}): resolving or spawning this recipe fails with UNKNOWN_ENGINE`);
  }
}

/** The engine params a turn reads with a type: a value it would not use is a warning naming the default it uses instead. */
export function checkEngineParams(d: RecipeDiagnostics, params: Readonly<Record<string, unknown>>, path: readonly (string | number)[] = ['params']): void {
  for (const key of ['maxIterations', 'modelTimeoutMs', 'clientToolTimeoutMs'] as const) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (positiveInt(value) === undefined) d.warning([...path, key], `${key} must be a whole number of at least 1, not ${JSON.stringify(value)}; a turn uses its default instead`);
  }
  for (const dropped of resolveSampling({ params }).dropped) {
    d.warning([...path, dropped.key], `${dropped.key} ${JSON.stringify(dropped.value)} is ${dropped.reason}; it is not sent to the model`);
  }
}
