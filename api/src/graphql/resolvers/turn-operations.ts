import { mapAsyncIterator } from '../../domain/shared/push-iterator';
import { processMode } from '../../domain/processes/process-mode';
import { eventPage } from '../../domain/events/event-page';
import { sharedRoots } from '../shared-subscription-results';
import type { MutationResolvers, QueryResolvers, SubscriptionResolvers } from '../__generated__/resolvers-types';

/** Turns, the chat log, the next turn's composition and the turn event stream (issue 5). */
export const turnQueries: QueryResolvers = {
  turns: async (_p, { processId }, ctx) => ctx.services.turns.turns(await ctx.principal(), processId),
  messages: async (_p, { processId }, ctx) => ctx.services.turns.messages(await ctx.principal(), processId),
  turnEventLog: async (_p, { processId, afterEventId, limit }, ctx) =>
    ctx.services.turns.storedEvents(await ctx.principal(), processId, eventPage(afterEventId, limit)),
  composeTurnPreview: async (_p, { processId }, ctx) => {
    const c = await ctx.services.turns.preview(await ctx.principal(), processId);
    return {
      provider: c.model.provider, model: c.model.model, tier: c.tier, sections: c.sections,
      // What the model is offered (before issue 15: the pool's primary names, some of which no tool implements).
      tools: c.request.tools.map((t) => t.name), deferredTools: c.pool.deferred, allowedTools: c.pool.allowed, request: c.request, toolPool: c.pool, toolProblems: c.toolProblems,
      verdicts: c.verdicts, openSkills: [...c.openSkills.open], tokens: c.budget.split, budget: c.budget.summary,
      droppedHistory: c.budget.dropped.length, catalog: c.catalog ? { summary: c.catalog.summary, cuts: c.catalog.cuts } : null,
      mode: processMode(c.renderContext.mode), renderContext: c.renderContext,
    };
  },
  skillTriggerTest: async (_p, { project, messages, recipe }, ctx) =>
    ctx.services.triggerBench.test(await ctx.principal(), project ?? null, messages, recipe ?? null),
  skillEvals: async (_p, { project, skill, models }, ctx) => ctx.services.skillEvals.run(await ctx.principal(), project ?? null, skill, models ?? false),
};

export const turnMutations: MutationResolvers = {
  regenerateTurn: async (_p, { processId }, ctx) => ctx.services.turns.regenerate(await ctx.principal(), processId),
  addSkillEvalCase: async (_p, { project, layer, skill, messages, fires, recipe }, ctx) =>
    ctx.services.skillEvals.addCase(await ctx.principal(), project ?? null, layer, skill, { messages, fires, recipe: recipe ?? null }),
};

/** One root per event (and view): its subscribers share one execution and one encoding. */
const turnEventsRoot = sharedRoots('turnEvents');

export const turnSubscriptions: SubscriptionResolvers = {
  turnEvents: {
    // The access check runs before anything streams: NOT_FOUND like processEvents.
    subscribe: async (_p, { processId, afterEventId }, ctx) => {
      const events = await ctx.services.turns.events(await ctx.principal(), processId, afterEventId ?? null);
      return mapAsyncIterator(events, turnEventsRoot);
    },
  },
};
