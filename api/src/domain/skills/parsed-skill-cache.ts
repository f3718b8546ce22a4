import { LRUCache } from 'lru-cache';
import type { LayerDocument } from '../cascade/document';
import type { ParsedSkill } from './parse-skill';

/**
 * Parsed SKILL.md files, so the per-turn path (listAvailable, load) does not re-parse (DESIGN §4).
 * Stored layers are keyed by tenant, project, path and document version — every write bumps the
 * version, so an edit is a new key and needs no invalidation; stale entries age out (LRU). RESOURCE
 * documents have no meaningful version and are shared by all tenants: they are keyed by path. On a
 * hit the content must also be identical (a cheap string comparison, usually the same string), which
 * covers a reloaded bundled layer and any version reuse.
 *
 * Bounded by entries and by characters (key and SKILL.md text; the parsed skill is of the same
 * order), least recently used out (lru-cache).
 */
interface Entry {
  readonly content: string;
  readonly parsed: ParsedSkill;
}

export class ParsedSkillCache {
  private readonly entries: LRUCache<string, Entry>;

  // Both above the largest skill set we plan for (10,000 skills per scope, a few KB each), so one
  // listing never evicts itself.
  constructor(maxEntries = 50_000, maxChars = 128_000_000) {
    this.entries = new LRUCache({ max: maxEntries, maxSize: maxChars, sizeCalculation: (entry, key) => key.length + entry.content.length });
  }

  get(tenantId: string, doc: LayerDocument): ParsedSkill | undefined {
    const entry = this.entries.get(keyOf(tenantId, doc));
    return entry && entry.content === doc.content ? entry.parsed : undefined;
  }

  set(tenantId: string, doc: LayerDocument, parsed: ParsedSkill): void {
    this.entries.set(keyOf(tenantId, doc), { content: doc.content, parsed });
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
