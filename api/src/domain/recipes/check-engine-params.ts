/**
 * What a recipe's engine and engine params will do when it runs, said at save (issue 15: validation
 * equals execution). The checks call the very functions the run uses — `isKnownEngine` (spawn
 * refuses other engines), `positiveInt` (the turn's iteration cap and deadlines), `resolveSampling`
 * (what reaches the model), `modelSpecOf` and `readModelSize` (the model and its tier),
 * `parseBooleanish` (validator corrections), `sanitiseManualPaths` (manual_list / manual_read) — so a
 * value the run would drop or refuse is a diagnostic with its line, not a silent default. Warnings,
 * not errors: recipes written for other deployments (engines such as jeltz or zaphod, real corpora)
 * still load and list; they fail only where they would run.
 */
import { ENGINE_NAMES, isKnownEngine } from '../engines/engine-names';
import { parseBooleanish } from '../shared/booleanish';
import { positiveInt } from '../shared/positive-int';
import { sanitiseManualPaths } from './manuals';
import { modelSpecOf } from './model-alias';
import { readModelSize } from './model-catalog';
import type { RecipeDiagnostics, YamlPath } from './recipe-diagnostics';
import { resolveSampling } from './sampling-params';

export function checkEngine(d: RecipeDiagnostics, raw: unknown, engine: string): void {
  if (engine === '') return;
  if (typeof raw !== 'string') d.warning(['engine'], `engine is a name such as ford or arthur, not ${typeof raw === 'number' ? 'a number' : typeof raw}; it is read as '${engine}'`);
  if (!isKnownEngine(engine)) {
    d.warning(['engine'], `engine '${engine}' does not run here (engines: ${ENGINE_NAMES.join(', ')}): resolving or spawning this recipe fails with UNKNOWN_ENGINE`);
  }
}

/**
 * The engine params a turn reads with a type: a value it would not use is a warning naming what it
 * does instead. `path` is ['params'] or ['profiles', <name>, 'params'] (a profile's params merge in).
 */
export function checkEngineParams(d: RecipeDiagnostics, params: Readonly<Record<string, unknown>>, path: YamlPath = ['params']): void {
  for (const key of ['maxIterations', 'modelTimeoutMs', 'clientToolTimeoutMs'] as const) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (positiveInt(value) === undefined) d.warning([...path, key], `${key} must be a whole number of at least 1, not ${JSON.stringify(value)}; a turn uses its default instead`);
  }
  for (const dropped of resolveSampling({ params }).dropped) {
    d.warning([...path, dropped.key], `${dropped.key} ${JSON.stringify(dropped.value)} is ${dropped.reason}; it is not sent to the model`);
  }
  if (modelSpecOf(params.model) === undefined) {
    d.warning([...path, 'model'], `model must be a model spec such as default:fast or anthropic:claude-sonnet-4-5, not ${JSON.stringify(params.model)}; the default model is used instead`);
  }
  if (readModelSize(params.modelSize) === undefined) {
    d.warning([...path, 'modelSize'], `modelSize must be SMALL, LARGE or AUTO, not ${JSON.stringify(params.modelSize)}; AUTO is used instead`);
  }
  if (params.validation !== undefined && params.validation !== null && parseBooleanish(params.validation) === undefined) {
    d.warning([...path, 'validation'], `validation must be true or false (true/false, yes/no, on/off, 1/0), not ${JSON.stringify(params.validation)}; the validator corrections stay off`);
  }
  checkManualPaths(d, params.manualPaths, [...path, 'manualPaths']);
}

/** A list of folders (a single string is read as one folder, with a warning); the tools skip an entry that is not a usable folder path. */
function checkManualPaths(d: RecipeDiagnostics, value: unknown, path: YamlPath): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string' && !Array.isArray(value)) {
    d.warning(path, `manualPaths must be a folder or a list of folders such as [docs/], not ${JSON.stringify(value)}; the manual tools ignore it`);
    return;
  }
  if (typeof value === 'string') {
    d.warning(path, `manualPaths should be a list of folders, e.g. [${value}]; the text ${JSON.stringify(value)} is read as that one folder (write [] for no manuals)`);
  }
  const entries: readonly unknown[] = Array.isArray(value) ? value : [value];
  entries.forEach((entry, index) => {
    if (sanitiseManualPaths([entry]).folders.length > 0) return;
    const at = Array.isArray(value) ? [...path, index] : path;
    d.warning(at, `manual path ${JSON.stringify(entry)} is not a folder relative to the document root (no '..', not empty); manual_list and manual_read skip it`);
  });
}
