import { InvalidInputError } from '../../domain/errors';
import { mapAsyncIterator } from '../../domain/shared/push-iterator';
import type { MutationResolvers, QueryResolvers, SubscriptionResolvers } from '../__generated__/resolvers-types';

/** Client (FOOT) tools (issue 6, seed 004 §6.2): registration, the call stream, the answers. */
export const clientToolQueries: QueryResolvers = {
  clientTools: async (_p, { sessionId }, ctx) => ctx.services.clientTools.registration(await ctx.principal(), sessionId),
};

export const clientToolMutations: MutationResolvers = {
  registerClientTools: async (_p, { sessionId, tools }, ctx) => ctx.services.clientTools.register(await ctx.principal(), sessionId, tools),
  submitClientToolResult: async (_p, { sessionId, callId, result, error }, ctx) => {
    const hasError = error !== null && error !== undefined;
    if (hasError === (result !== undefined && result !== null)) {
      throw new InvalidInputError('INVALID_CLIENT_TOOL_RESULT', 'Give exactly one of `result` and `error`.', hasError ? 'result' : 'error');
    }
    return ctx.services.clientTools.submit(await ctx.principal(), sessionId, callId, hasError ? { error } : { result });
  },
};

export const clientToolSubscriptions: SubscriptionResolvers = {
  clientToolCalls: {
    // The ownership check runs before anything streams: another user's session is NOT_FOUND.
    subscribe: async (_p, { sessionId }, ctx) => {
      const calls = await ctx.services.clientTools.subscribe(await ctx.principal(), sessionId);
      return mapAsyncIterator(calls, (call) => ({ clientToolCalls: call }));
    },
  },
};
