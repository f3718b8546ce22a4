import { LRUCache } from 'lru-cache';
import { computeToolPool, type ToolPool, type ToolPoolInput } from '../../recipes/tool-pool';
import type { ToolDescriptor } from '../../tools/tool-descriptor';

/**
 * Tool pools by input (seed 000 §5b, seed 004 §6): computeToolPool is a pure function of its input,
 * and from one turn to the next usually nothing but the active skills' tools changes. The key is the
 * text of the selector lists plus a fingerprint of `available` (names, labels and deferred flags, remembered per
 * array, so a catalog list that is the same array every turn is fingerprinted once, and one merged
 * afresh per turn costs a join). LRU-bounded by entries and by key characters (a key spells out the
 * whole catalog, and outweighs the pool, whose arrays share the catalog's descriptors); results are
 * frozen, as turns share them.
 */
export class ToolPoolCache {
  private readonly fingerprints = new WeakMap<readonly ToolDescriptor[], string>();
  private readonly pools: LRUCache<string, ToolPool>;

  constructor(maxEntries = 512, maxKeyChars = 16_000_000) {
    this.pools = new LRUCache({ max: maxEntries, maxSize: maxKeyChars, sizeCalculation: (_pool, key) => key.length });
  }

  poolFor(input: ToolPoolInput): ToolPool {
    const selectors = JSON.stringify([input.engineAllowed, input.add, input.remove, input.skillTools ?? [], input.defer ?? [], input.keep ?? [], input.dropFirst ?? [], input.maxTools ?? null]);
    const key = `${this.fingerprint(input.available)}\u0000${selectors}`;
    let pool = this.pools.get(key);
    if (!pool) {
      pool = freezePool(computeToolPool(input));
      this.pools.set(key, pool);
    }
    return pool;
  }

  private fingerprint(available: readonly ToolDescriptor[]): string {
    let print = this.fingerprints.get(available);
    if (print === undefined) {
      print = JSON.stringify(available.map((t) => [t.name, t.labels, t.deferred === true]));
      this.fingerprints.set(available, print);
    }
    return print;
  }
}

function freezePool(pool: ToolPool): ToolPool {
  for (const value of Object.values(pool)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(pool);
}
