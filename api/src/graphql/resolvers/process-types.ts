import type {
  ActiveSkillResolvers, ProcessEventResolvers, ProcessResolvers, RuntimeGuardResolvers, SkillCommandResultResolvers, SkillListEntryResolvers,
} from '../__generated__/resolvers-types';
import { processView } from '../../domain/processes/owner-view';
import type { GraphQLContext } from '../context';
import type { Process as ProcessModel } from '../../domain/processes/process';

/** The process as the caller may see it (the owner's USER layer withheld from others, owner-view.ts). */
const view = async (p: ProcessModel, ctx: GraphQLContext) => processView(await ctx.principal(), p);

export const Process: ProcessResolvers = {
  project: async (p, _a, ctx) => (await ctx.services.identity.findProjectById(await ctx.principal(), p.projectId)).name,
  session: async (p, _a, ctx) => {
    const session = await ctx.services.processes.session(await ctx.principal(), p.sessionId);
    if (!session) throw new Error(`session ${p.sessionId} of process ${p.id} is missing`);
    return session;
  },
  recipe: (p) => p.recipeName,
  parentId: (p) => p.parentProcessId,
  allowedSkills: (p) => p.allowedSkillsOverride,
  params: (p) => p.engineParams,
  activeSkills: async (p, _a, ctx) => (await view(p, ctx)).activeSkills,
  promptTemplate: async (p, _a, ctx) => (await view(p, ctx)).promptOverride,
  profileAppend: async (p, _a, ctx) => (await view(p, ctx)).profileAppend,
  dataRelayCorrection: async (p, _a, ctx) => (await view(p, ctx)).dataRelayCorrectionOverride,
  recipeGuards: async (p, _a, ctx) => (await view(p, ctx)).recipeGuards,
  pending: async (p, _a, ctx) => ctx.services.processes.pending(await ctx.principal(), p.id),
};

export const ActiveSkill: ActiveSkillResolvers = {
  source: (r) => r.resolvedFromScope,
};

export const RuntimeGuard: RuntimeGuardResolvers = {
  path: (g) => (g.kind === 'SCRIPT' ? g.path : null),
  body: (g) => (g.kind === 'INLINE' ? g.body : null),
};

export const SkillListEntry: SkillListEntryResolvers = {
  name: (e) => e.skill.name,
  title: (e) => e.skill.skill?.title ?? null,
  description: (e) => e.skill.skill?.description ?? null,
  source: (e) => e.skill.source,
};

export const SkillCommandResult: SkillCommandResultResolvers = {
  process: (r) => (r.kind === 'ACTIVATE' ? r.activation.process : r.kind === 'CLEAR' ? r.clear.process : r.process),
  activation: (r) => (r.kind === 'ACTIVATE' ? r.activation : null),
  clear: (r) => (r.kind === 'CLEAR' ? r.clear : null),
  skills: (r) => (r.kind === 'LIST' ? r.skills : null),
};

const EVENT_TYPES = {
  PROCESS_SPAWNED: 'ProcessSpawnedEvent',
  SKILL_ACTIVATED: 'SkillActivatedEvent',
  SKILL_CLEARED: 'SkillClearedEvent',
  SKILL_REFUSED: 'SkillRefusedEvent',
  MESSAGE_QUEUED: 'MessageQueuedEvent',
  TURN_SCHEDULED: 'TurnScheduledEvent',
  CHILD_SPAWNED: 'ChildSpawnedEvent',
  COMMAND_RAN: 'CommandRanEvent',
  COMMAND_FAILED: 'CommandFailedEvent',
  GUARD_RAN: 'GuardRanEvent',
  MODE_SET: 'ModeSetEvent',
} as const;

export const ProcessEvent: ProcessEventResolvers = {
  __resolveType: (e) => EVENT_TYPES[e.type],
};
