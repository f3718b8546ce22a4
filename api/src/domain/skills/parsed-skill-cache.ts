import type { LayerDocument } from '../cascade/document';
import type { ParsedSkill } from './parse-skill';

/**
 * Parsed SKILL.md files, so the per-turn path (listAvailable, load) does not re-parse (DESIGN §4).
 * Stored layers are keyed by tenant, project, path and document version — every write bumps the
 * version, so an edit is a new key and needs no invalidation; stale entries age out (LRU). RESOURCE
 * documents have no meaningful version and are shared by all tenants: they are keyed by path. On a
 * hit the content must also be identical (a cheap string comparison, usually the same string), which
 * covers a reloaded bundled layer and any version reuse.
 */
interface Entry {
  readonly content: string;
  readonly parsed: ParsedSkill;
}

export class ParsedSkillCache {
  private readonly entries = new Map<string, Entry>();

  // Above the largest skill set we plan for (10,000 skills per scope), so one listing never evicts itself.
  constructor(private readonly maxEntries = 50_000) {}

  get(tenantId: string, doc: LayerDocument): ParsedSkill | undefined {
    const key = keyOf(tenantId, doc);
    const entry = this.entries.get(key);
    if (!entry || entry.content !== doc.content) return undefined;
    // Re-insert: Map order is the LRU order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.parsed;
  }

  set(tenantId: string, doc: LayerDocument, parsed: ParsedSkill): void {
    const key = keyOf(tenantId, doc);
    this.entries.delete(key);
    this.entries.set(key, { content: doc.content, parsed });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

function keyOf(tenantId: string, doc: LayerDocument): string {
  if (doc.layer === 'RESOURCE') return `RESOURCE\u0000${doc.path}`;
  return [doc.layer, tenantId, doc.projectId ?? '', doc.path, String(doc.version)].join('\u0000');
}
