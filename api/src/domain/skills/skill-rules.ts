import type { FrontmatterReader } from './frontmatter-reader';
import type { Skill } from './skill';

/**
 * The cross-field rules of seed 000 §2a, §2c and §5b, checked once every field is read:
 * - spawn needs `action:` (the worker would start and idle) — error; spawn + `lifecycle: shot` — error;
 *   spawn + `triggers` — warning (only the explicit path spawns; triggers are a no-op there);
 * - a shot skill never registers, so its `tools`, `manualPaths`, `referenceDocs`, `scripts` and
 *   `deactivate` never apply — warnings; a shot skill with no body, no `activate` and no `action`
 *   does nothing — warning;
 * - `disable-model-invocation: true` with `triggers`: auto-triggering is implicit activation, which
 *   a skill hidden from the model does not get (seed 002) — warning.
 */
export type RuleInput = Pick<
  Skill,
  'lifecycle' | 'run' | 'action' | 'triggers' | 'tools' | 'manualPaths' | 'referenceDocs' | 'scripts' | 'activate' | 'deactivate' | 'promptExtension' | 'invocation'
> & { readonly spawnRequested: boolean };

export function checkSkillRules(reader: FrontmatterReader, skill: RuleInput): void {
  if (skill.spawnRequested) checkSpawn(reader, skill);
  if (skill.lifecycle === 'shot') checkShot(reader, skill);
  if (!skill.invocation.modelInvocable && skill.triggers.length > 0) {
    reader.warning(['triggers'], '`triggers` never fire: `disable-model-invocation: true` leaves only explicit `/skill` activation. Remove the triggers or the key.');
  }
}

function checkSpawn(reader: FrontmatterReader, skill: RuleInput): void {
  if (skill.lifecycle === 'shot') {
    reader.error(['lifecycle'], '`lifecycle: shot` cannot be combined with `run.target: spawn`: shot never registers, spawn registers the skill sticky in the worker.');
  }
  if (skill.action === null) {
    reader.report('ERROR', ['action'], 'A skill with `run.target: spawn` needs `action:`, the worker\'s first message; without it the worker starts and idles.', reader.location(['run', 'target']));
  }
  if (skill.triggers.length > 0) {
    reader.warning(['triggers'], '`triggers` have no effect on a spawn skill: only an explicit `/skill` spawns a worker.');
  }
}

function checkShot(reader: FrontmatterReader, skill: RuleInput): void {
  const unused: Array<[keyof RuleInput & string, boolean]> = [
    ['tools', skill.tools.length > 0],
    ['manualPaths', skill.manualPaths.length > 0],
    ['referenceDocs', skill.referenceDocs.length > 0],
    ['scripts', skill.scripts.length > 0],
    ['deactivate', skill.deactivate.length > 0],
  ];
  for (const [key, present] of unused) {
    if (present) {
      reader.warning([key], `\`${key}\` has no effect on a \`lifecycle: shot\` skill: it never becomes active. Use a sticky skill with \`/skill --once\` instead.`);
    }
  }
  if (skill.promptExtension === '' && skill.activate.length === 0 && skill.action === null) {
    reader.warning(['lifecycle'], 'This shot skill does nothing: it has no body, no `activate:` and no `action:`.');
  }
}
