import { LRUCache } from 'lru-cache';
import type { StoredDocument } from './document';
import type { DocumentStore, ProjectRef } from './document-store';

/**
 * Read-through cache over the stored layers, per project: lookups (hits *and* misses, since most
 * cascade lookups miss in the inner layers) and prefix listings. Any write to a project drops that
 * project's entries (DESIGN §4). A generation counter keeps a read that raced with a write from
 * caching what it saw before the write.
 *
 * Projects are kept in an lru-cache bounded by count and by the characters they hold (paths and
 * contents), so a few projects of large documents cannot hold the memory of two thousand small ones.
 * lru-cache sizes an entry when it is set, so a project that grew is set again as a new record
 * sharing the same maps.
 */
interface ProjectEntries {
  readonly tenantId: string;
  readonly lookups: Map<string, StoredDocument | null>;
  readonly listings: Map<string, readonly StoredDocument[]>;
  /** Characters held: paths, prefixes and document contents. */
  readonly chars: number;
}

export interface DocumentCacheOptions {
  /** Projects kept; the least recently used project is dropped beyond it. */
  readonly maxProjects?: number;
  /** Entries per project before that project's entries are dropped wholesale. */
  readonly maxEntriesPerProject?: number;
  /** Characters all projects hold together; a project past it on its own is not kept. */
  readonly maxChars?: number;
  /** Off: every read goes to the store (the naive path benchmarks compare against). */
  readonly disabled?: boolean;
}

export class CachedDocumentReader {
  private readonly projects: LRUCache<string, ProjectEntries>;
  private readonly generations = new Map<string, number>();
  private readonly maxEntries: number;
  private readonly disabled: boolean;
  /** Bumped by clear(), so reads in flight across a clear() do not cache what they saw. */
  private epoch = 0;

  constructor(private readonly store: DocumentStore, options: DocumentCacheOptions = {}) {
    this.projects = new LRUCache({
      max: options.maxProjects ?? 2_000,
      maxSize: options.maxChars ?? 64_000_000,
      sizeCalculation: (entries) => Math.max(1, entries.chars),
    });
    this.maxEntries = options.maxEntriesPerProject ?? 5_000;
    this.disabled = options.disabled ?? false;
  }

  async find(ref: ProjectRef, path: string): Promise<StoredDocument | null> {
    const entries = this.entries(ref);
    if (!entries) return this.store.find(ref, path);
    if (entries.lookups.has(path)) return entries.lookups.get(path)!;
    const stamp = this.stamp(ref.projectId);
    const doc = await this.store.find(ref, path);
    if (this.unchangedSince(ref.projectId, stamp)) this.remember(ref, path.length + (doc?.content.length ?? 0), (e) => e.lookups.set(path, doc));
    return doc;
  }

  /**
   * The cached answer to find() without reading: a document, null (a cached miss), or undefined
   * when it is not cached (then find() reads it). Lets a warm cascade lookup run without a promise
   * per layer (issue 18).
   */
  peek(ref: ProjectRef, path: string): StoredDocument | null | undefined {
    if (this.disabled) return undefined;
    const existing = this.projects.get(ref.projectId); // a hit marks the project as recently used, as in find()
    return existing && existing.tenantId === ref.tenantId ? existing.lookups.get(path) : undefined;
  }

  async listByPrefix(ref: ProjectRef, prefix: string): Promise<readonly StoredDocument[]> {
    const entries = this.entries(ref);
    if (!entries) return this.store.listByPrefix(ref, prefix);
    const cached = entries.listings.get(prefix);
    if (cached) return cached;
    const stamp = this.stamp(ref.projectId);
    const docs = Object.freeze(await this.store.listByPrefix(ref, prefix));
    if (this.unchangedSince(ref.projectId, stamp)) {
      const chars = docs.reduce((sum, d) => sum + d.path.length + d.content.length, prefix.length);
      this.remember(ref, chars, (e) => e.listings.set(prefix, docs));
    }
    return docs;
  }

  /** Called on every write to the project, locally and when another instance reports one. */
  invalidate(projectId: string): void {
    this.generations.set(projectId, this.generationOf(projectId) + 1);
    this.projects.delete(projectId);
  }

  clear(): void {
    this.epoch++;
    this.projects.clear();
  }

  private generationOf(projectId: string): number {
    return this.generations.get(projectId) ?? 0;
  }

  private stamp(projectId: string): { generation: number; epoch: number } {
    return { generation: this.generationOf(projectId), epoch: this.epoch };
  }

  private unchangedSince(projectId: string, stamp: { generation: number; epoch: number }): boolean {
    return this.generationOf(projectId) === stamp.generation && this.epoch === stamp.epoch;
  }

  /**
   * The project's entries, or null when the cache must be bypassed: disabled, or a ref whose
   * tenant differs from the cached one (defence in depth; the store checks both ids).
   */
  private entries(ref: ProjectRef): ProjectEntries | null {
    if (this.disabled) return null;
    const existing = this.projects.get(ref.projectId); // a hit marks the project as recently used
    if (!existing) return fresh(ref);
    return existing.tenantId === ref.tenantId ? existing : null;
  }

  /** Adds an entry of `chars` characters to the project (afresh past maxEntriesPerProject) and re-sizes it. */
  private remember(ref: ProjectRef, chars: number, add: (entries: ProjectEntries) => void): void {
    const current = this.projects.peek(ref.projectId);
    if (current && current.tenantId !== ref.tenantId) return;
    const entries = !current || current.lookups.size + current.listings.size >= this.maxEntries ? fresh(ref) : current;
    add(entries);
    this.projects.set(ref.projectId, { ...entries, chars: entries.chars + chars });
  }
}

function fresh(ref: ProjectRef): ProjectEntries {
  return { tenantId: ref.tenantId, lookups: new Map(), listings: new Map(), chars: 0 };
}
