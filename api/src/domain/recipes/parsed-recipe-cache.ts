/**
 * Parsed recipes keyed by (layer, project, path, version) — the document version changes on every
 * write, so an entry never goes stale and no invalidation is needed (DESIGN §4: the hot path does not
 * re-parse). Bounded, least recently used out. The parse does not depend on the caller's tenant
 * (the `tenants:` barrier is applied after), so bundled recipes are shared across tenants.
 */
import type { LayerDocument } from '../cascade/document';
import type { ParseRecipeResult } from './parse-recipe';

export class ParsedRecipeCache {
  private readonly entries = new Map<string, ParseRecipeResult>();

  constructor(private readonly maxEntries = 5_000) {}

  get size(): number {
    return this.entries.size;
  }

  getOrParse(doc: LayerDocument, parse: () => ParseRecipeResult): ParseRecipeResult {
    const key = `${doc.layer}\u0000${doc.projectId ?? ''}\u0000${doc.path}\u0000${doc.version}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const parsed = parse();
    this.entries.set(key, parsed);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return parsed;
  }

  clear(): void {
    this.entries.clear();
  }
}
