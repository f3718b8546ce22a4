import type { ModelProvider } from '../llm/model-provider';
import { DEFAULT_TEMPERATURE, type SamplingParams } from '../recipes/sampling-params';
import type { SettingsReader } from '../settings/settings-reader';
import { isModelInvocable } from '../skills/invocation-policy';
import type { AvailableSkill } from '../skills/skill-resolver';
import type { SkillPickJudge } from './run-skill-evals';
import { budgetCatalog } from './skill-catalog-budget';
import { OPEN_SKILL_TOOL, PendingOpenSkills, skillPickerTools } from './skill-picker-tools';

/** The catalog budget of a judged call: generous, so a cut never decides a case. */
const JUDGE_CATALOG_TOKENS = 8_000;
/** The turn's default temperature: the rate measures how the model picks in a turn. */
const JUDGE_SAMPLING: SamplingParams = { temperature: DEFAULT_TEMPERATURE, maxTokens: 512, topP: null, topK: null, stopSequences: null, seed: null, frequencyPenalty: null, presencePenalty: null };
/** One judged call may take this long before it counts as "not opened". */
const JUDGE_TIMEOUT_MS = 60_000;

/**
 * Asks the configured model whether it opens a `picked` skill (issue 20): the conversation as user
 * messages and the turn's own `open_skill` tool (skill-picker-tools.ts, whose description is the
 * catalog of the scope's pickable skills). Opened = the model calls open_skill with the skill's name.
 * Returns null when no real provider is configured: `offline` picks nothing, so it would only fail.
 */
export function modelPickJudge(provider: ModelProvider, settings: SettingsReader): Promise<SkillPickJudge | null> {
  return (async () => {
    const name = (await settings.get('ai.default.provider'))?.trim().toLowerCase();
    const model = (await settings.get('ai.default.model'))?.trim();
    if (!name || !model || name === 'offline') return null;
    return {
      async opens(skill: AvailableSkill, skills: readonly AvailableSkill[], messages: readonly string[]): Promise<boolean> {
        const pickable = skills.filter((s) => s.skill.activation.when === 'picked' && isModelInvocable(s.skill));
        if (!pickable.some((s) => s.name === skill.name)) pickable.push(skill);
        const catalog = budgetCatalog({ skills: pickable.map((s) => ({ name: s.name, description: s.skill.description })), budgetTokens: JUDGE_CATALOG_TOKENS, header: 'Skills:' });
        const [open] = skillPickerTools({ pickable, state: new PendingOpenSkills([]), catalog, render: async () => '' }).filter((t) => t.name === OPEN_SKILL_TOOL);
        const signal = AbortSignal.timeout(JUDGE_TIMEOUT_MS);
        const stream = provider.stream({
          provider: name, model, settings, signal, sampling: JUDGE_SAMPLING,
          messages: messages.map((content) => ({ role: 'user' as const, content })),
          tools: open ? [{ name: open.name, description: open.description, parameters: open.parameters }] : [],
        });
        for await (const event of stream) {
          if (event.type === 'tool-call' && event.call.name === OPEN_SKILL_TOOL && String(event.call.arguments['name'] ?? '').trim() === skill.name) return true;
        }
        return false;
      },
    };
  })();
}
