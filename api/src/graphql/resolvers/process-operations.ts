import { InvalidInputError } from '../../domain/errors';
import { jsonObject } from '../json-argument';
import { PROCESS_EVENTS_TOPIC, type ProcessEventEnvelope } from '../../domain/processes/process-event';
import { mayReceiveProcessEvent } from '../../domain/processes/owner-view';
import type { MutationResolvers, QueryResolvers, SubscriptionResolvers } from '../__generated__/resolvers-types';
import { eventStream } from '../event-stream';
import type { ProcessEventModel } from '../models';

export const processQueries: QueryResolvers = {
  process: async (_p, { id }, ctx) => ctx.services.processes.get(await ctx.principal(), id),
  processes: async (_p, { project, session }, ctx) => ctx.services.processes.list(await ctx.principal(), project, session ?? null),
  sessions: async (_p, { project }, ctx) => ctx.services.processes.sessions(await ctx.principal(), project),
  skillCompletions: async (_p, { processId, prefix }, ctx) => ctx.services.activation.completions(await ctx.principal(), processId, prefix ?? ''),
};

export const processMutations: MutationResolvers = {
  spawnProcess: async (_p, { input }, ctx) => ctx.services.processes.spawn(await ctx.principal(), { ...input, params: jsonObject(input.params, 'params') }),
  activateSkill: async (_p, { processId, name, args, once }, ctx) =>
    ctx.services.activation.activate(await ctx.principal(), processId, name, args?.trim() ? args.trim() : null, once ?? false),
  clearSkills: async (_p, { processId, name }, ctx) => ctx.services.activation.clear(await ctx.principal(), processId, name ?? null),
  skillCommand: async (_p, { processId, line }, ctx) => ctx.services.activation.command(await ctx.principal(), processId, line),
  sendMessage: async (_p, { processId, text }, ctx) => {
    if (!text.trim()) throw new InvalidInputError('EMPTY_MESSAGE', 'A message needs some text', 'text');
    return ctx.services.activation.sendMessage(await ctx.principal(), processId, text);
  },
};

export const processSubscriptions: SubscriptionResolvers = {
  processEvents: {
    // The access check comes first: a process the caller may not see is NOT_FOUND before anything streams.
    subscribe: async (_p, { processId }, ctx) => {
      const principal = await ctx.principal();
      const process = await ctx.services.processes.get(principal, processId);
      return eventStream<ProcessEventEnvelope, { processEvents: ProcessEventModel }>(ctx.services.bus, PROCESS_EVENTS_TOPIC, (e) =>
        e.processId === process.id && e.tenantId === process.tenantId && mayReceiveProcessEvent(principal, process, e.event)
          ? { processEvents: { ...e.event, processId: e.processId, at: e.at } } : null);
    },
  },
};
