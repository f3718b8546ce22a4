import type { QueryResolvers, SubscriptionResolvers } from '../__generated__/resolvers-types';
import type { TurnEvent } from '../../domain/turns';

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
      return mapIterator(events, (e) => ({ turnEvents: e }));
    },
  },
};

function mapIterator<R>(source: AsyncIterableIterator<TurnEvent>, map: (e: TurnEvent) => R): AsyncIterableIterator<R> {
  return {
    next: async () => {
      const r = await source.next();
      return r.done ? { value: undefined, done: true } : { value: map(r.value), done: false };
    },
    return: async () => {
      await source.return?.();
      return { value: undefined, done: true };
    },
    throw: async (err) => {
      await source.return?.();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
