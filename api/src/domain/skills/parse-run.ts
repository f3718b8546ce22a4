import type { FrontmatterReader } from './frontmatter-reader';
import type { SkillRun } from './skill';

/**
 * `run:` (seed 000 §2c): where the activation takes effect. `target: inline` (default) or `spawn`;
 * `recipe` is required for spawn (checked with the other cross-field rules in skill-rules.ts, which
 * also sees `action:`); `inherit` defaults to `none`. Fields that only mean something for spawn are
 * warnings on an inline skill.
 */
const RUN_KEYS = ['target', 'recipe', 'inherit'];
const TARGETS = ['inline', 'spawn'] as const;

export interface RunRead {
  readonly run: SkillRun;
  /** target spawn was asked for, whatever else failed (for the cross-field rules). */
  readonly spawnRequested: boolean;
}

export function readRun(reader: FrontmatterReader, value: unknown): RunRead | undefined {
  if (value === undefined || value === null) return { run: { target: 'inline' }, spawnRequested: false };
  const map = reader.map(['run'], value);
  if (!map) return undefined;
  reader.unknownKeys(['run'], map, RUN_KEYS);
  const target = reader.choice(['run', 'target'], map.target, TARGETS, 'inline');
  const recipe = reader.optionalText(['run', 'recipe'], map.recipe);
  const inherit = reader.optionalText(['run', 'inherit'], map.inherit);
  if (target === undefined) return undefined;
  if (target === 'inline') {
    for (const [key, set] of [['recipe', recipe], ['inherit', inherit]] as const) {
      if (set !== null) reader.warning(['run', key], `\`run.${key}\` only applies to \`run.target: spawn\` and is ignored for an inline skill.`);
    }
    return { run: { target: 'inline' }, spawnRequested: false };
  }
  if (recipe === null) {
    reader.error(['run', 'recipe'], '`run.target: spawn` needs `run.recipe`, the recipe of the worker process.');
    return { run: { target: 'inline' }, spawnRequested: true };
  }
  return { run: { target: 'spawn', recipe, inherit: inherit ?? 'none' }, spawnRequested: true };
}
