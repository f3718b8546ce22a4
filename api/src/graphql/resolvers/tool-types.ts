import type { PoolToolResolvers } from '../__generated__/resolvers-types';

/** A pool computed outside a turn (a spawn resolution without composition) names no origins: those are built-ins. */
export const PoolTool: PoolToolResolvers = {
  origin: (tool) => tool.origin ?? { kind: 'BUILTIN' },
};
