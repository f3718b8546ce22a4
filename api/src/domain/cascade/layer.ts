/**
 * The cascade layers, innermost first (seed 000 §3, seed 004 §3): the first layer that holds a
 * path wins the whole document; there is never a field merge.
 */
export const LAYERS = ['USER', 'PROJECT', 'VANCE', 'RESOURCE'] as const;
export type Layer = (typeof LAYERS)[number];

/** Layers kept in the database; RESOURCE is bundled with the code and read-only (seed 000 §14). */
export type StoredLayer = Exclude<Layer, 'RESOURCE'>;

export function isLayer(value: string): value is Layer {
  return (LAYERS as readonly string[]).includes(value);
}
