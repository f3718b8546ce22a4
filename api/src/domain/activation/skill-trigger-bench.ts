/**
 * `skillTriggerTest(project, messages, recipe)` (issue 8): every skill's verdict for a conversation,
 * for skill authors and the dashboard's trigger bench — the same matcher and the same verdict rules a
 * turn uses, with the recipe's whitelist and its default skills as a fresh process would have them.
 */
import type { CascadeScope } from '../cascade/scope';
import { InvalidInputError } from '../errors';
import type { Principal } from '../identity/principal';
import type { TriggerIndexCache } from '../processes/triggers/trigger-index-cache';
import { scopeKey } from '../processes/triggers/skill-set-cache';
import type { RecipeResolution } from '../recipes/recipe-resolution';
import type { AvailableSkill } from '../skills/skill-resolver';
import { conversationVerdicts } from './conversation-verdicts';
import type { SkillVerdict } from './skill-verdicts';

export const MAX_BENCH_MESSAGES = 200;
const MAX_BENCH_MESSAGE_CHARS = 100_000;

export interface SkillTriggerBenchDeps {
  scope(principal: Principal, project: string | null): Promise<CascadeScope>;
  skills(scope: CascadeScope): Promise<readonly AvailableSkill[]>;
  readonly indexes: TriggerIndexCache;
  resolveRecipe(principal: Principal, name: string, project: string | null): Promise<Pick<RecipeResolution, 'allowedSkills' | 'defaultActiveSkills' | 'recipe'>>;
}

export class SkillTriggerBench {
  constructor(private readonly deps: SkillTriggerBenchDeps) {}

  /** `messages` oldest first; the last one is the message being answered. */
  async test(principal: Principal, project: string | null, messages: readonly string[], recipe: string | null): Promise<SkillVerdict[]> {
    if (messages.length > MAX_BENCH_MESSAGES) throw new InvalidInputError('TOO_MANY_MESSAGES', `At most ${MAX_BENCH_MESSAGES} messages`, 'messages');
    const long = messages.findIndex((m) => m.length > MAX_BENCH_MESSAGE_CHARS);
    if (long >= 0) throw new InvalidInputError('MESSAGE_TOO_LARGE', `A message may hold at most ${MAX_BENCH_MESSAGE_CHARS} characters`, `messages[${long}]`);
    const scope = await this.deps.scope(principal, project);
    const skills = await this.deps.skills(scope);
    const resolution = recipe ? await this.deps.resolveRecipe(principal, recipe, project) : null;
    const start = resolution ? { name: resolution.recipe?.name ?? recipe ?? '', allowedSkills: resolution.allowedSkills, defaultActiveSkills: resolution.defaultActiveSkills } : null;
    const index = await this.deps.indexes.load(skills, scopeKey(scope));
    return conversationVerdicts(skills, index, messages, start).verdicts;
  }
}
