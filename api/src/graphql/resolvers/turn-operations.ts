import { mapAsyncIterator } from '../../domain/shared/push-iterator';
import type { QueryResolvers, SubscriptionResolvers } from '../__generated__/resolvers-types';

/** Turns, the chat log, the next turn's composition and the turn event stream (issue 5). */
export const turnQueries: QueryResolvers = {
  turns: async (_p, { processId }, ctx) => ctx.services.turns.turns(await ctx.principal(), processId),
  messages: async (_p, { processId }, ctx) => ctx.services.turns.messages(await ctx.principal(), processId),
  composeTurnPreview: async (_p, { processId }, ctx) => {
    const c = await ctx.services.turns.preview(await ctx.principal(), processId);
    return {
      provider: c.model.provider, model: c.model.model, tier: c.tier, sections: c.sections,
      tools: c.pool.primary, deferredTools: c.pool.deferred, allowedTools: c.pool.allowed,
    };
  },
};

export const turnSubscriptions: SubscriptionResolvers = {
  turnEvents: {
    // The access check runs before anything streams: NOT_FOUND like processEvents.
    subscribe: async (_p, { processId, afterEventId }, ctx) => {
      const events = await ctx.services.turns.events(await ctx.principal(), processId, afterEventId ?? null);
      return mapAsyncIterator(events, (e) => ({ turnEvents: e }));
    },
  },
};
