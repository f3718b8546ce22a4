/**
 * The engines Vance runs (seed 004 §1: few and structural). A spawn naming any other engine fails at
 * spawn time, not at turn time. The engines themselves come with the turns issue.
 */
export const ENGINE_NAMES = ['ford', 'arthur'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export function isKnownEngine(name: string): name is EngineName {
  return (ENGINE_NAMES as readonly string[]).includes(name);
}
