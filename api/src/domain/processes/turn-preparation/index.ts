/** Turn preparation (seed 000 §4a, §5): triggers, active skills, the skills section, the tool pool. */
export { createTurnCaches, prepareTurn, type PrepareTurnInput, type PreparedTurn, type TurnCaches } from './prepare-turn';
export { resolveActiveSkills, type ResolvedActiveSkill } from './active-skills';
export { composeSkillsSection, ON_DEMAND_HEADER, type ComposeOptions, type SectionSkill, type SkillsSection } from './skills-section';
export { RenderedBodyCache, type RenderedBodyCacheOptions } from './rendered-body-cache';
export { ToolPoolCache } from './tool-pool-cache';
export { dataKey } from './data-key';
export type { TurnWarning } from './turn-warning';
