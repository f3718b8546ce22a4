import { InvalidInputError } from '../../domain/errors';
import { jsonObject } from '../json-argument';
import { eventPage } from '../../domain/events/event-page';
import { mapAsyncIterator } from '../../domain/shared/push-iterator';
import type { MutationResolvers, QueryResolvers, SubscriptionResolvers } from '../__generated__/resolvers-types';
import type { ProcessEventModel } from '../models';

export const processQueries: QueryResolvers = {
  process: async (_p, { id }, ctx) => ctx.services.processes.get(await ctx.principal(), id),
  processes: async (_p, { project, session }, ctx) => ctx.services.processes.list(await ctx.principal(), project, session ?? null),
  sessions: async (_p, { project }, ctx) => ctx.services.processes.sessions(await ctx.principal(), project),
  processEventLog: async (_p, { processId, afterEventId, limit }, ctx) => {
    const page = eventPage(afterEventId, limit);
    const events = await ctx.services.processes.storedEvents(await ctx.principal(), processId, page);
    return events.map((e): ProcessEventModel => ({ ...e.event, id: e.id, processId: e.processId, at: e.at }));
  },
  skillCompletions: async (_p, { processId, prefix }, ctx) => ctx.services.activation.completions(await ctx.principal(), processId, prefix ?? ''),
};

export const processMutations: MutationResolvers = {
  spawnProcess: async (_p, { input }, ctx) => ctx.services.processes.spawn(await ctx.principal(), { ...input, params: jsonObject(input.params, 'params') }),
  activateSkill: async (_p, { processId, name, args, once }, ctx) =>
    ctx.services.activation.activate(await ctx.principal(), processId, name, args?.trim() ? args.trim() : null, once ?? false),
  clearSkills: async (_p, { processId, name }, ctx) => ctx.services.activation.clear(await ctx.principal(), processId, name ?? null),
  setProcessMode: async (_p, { processId, mode }, ctx) => ctx.services.processes.setMode(await ctx.principal(), processId, mode),
  skillCommand: async (_p, { processId, line }, ctx) => ctx.services.activation.command(await ctx.principal(), processId, line),
  engineCommand: async (_p, { processId, line }, ctx) => ctx.services.engineCommands.run(await ctx.principal(), processId, line),
  sendMessage: async (_p, { processId, text }, ctx) => {
    if (!text.trim()) throw new InvalidInputError('EMPTY_MESSAGE', 'A message needs some text', 'text');
    return ctx.services.activation.sendMessage(await ctx.principal(), processId, text);
  },
};

export const processSubscriptions: SubscriptionResolvers = {
  processEvents: {
    // The access check comes first: a process the caller may not see is NOT_FOUND before anything streams.
    // Stored events after afterEventId, then live ones (issue 14): no gap, no duplicate.
    subscribe: async (_p, { processId, afterEventId }, ctx) => {
      const events = await ctx.services.processes.events(await ctx.principal(), processId, afterEventId ?? null);
      return mapAsyncIterator(events, (e): { processEvents: ProcessEventModel } => ({ processEvents: { ...e.event, id: e.id, processId: e.processId, at: e.at } }));
    },
  },
};
