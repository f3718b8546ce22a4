import type { StoredDocument } from './document';
import type { DocumentStore, ProjectRef } from './document-store';

/**
 * Read-through cache over the stored layers, per project: lookups (hits *and* misses, since most
 * cascade lookups miss in the inner layers) and prefix listings. Any write to a project drops that
 * project's entries (DESIGN §4). A generation counter keeps a read that raced with a write from
 * caching what it saw before the write.
 */
interface ProjectEntries {
  readonly tenantId: string;
  generation: number;
  readonly lookups: Map<string, StoredDocument | null>;
  readonly listings: Map<string, readonly StoredDocument[]>;
}

export interface DocumentCacheOptions {
  /** Projects kept; the least recently used project is dropped beyond it. */
  readonly maxProjects?: number;
  /** Entries per project before that project's entries are dropped wholesale. */
  readonly maxEntriesPerProject?: number;
  /** Off: every read goes to the store (the naive path benchmarks compare against). */
  readonly disabled?: boolean;
}

export class CachedDocumentReader {
  private readonly projects = new Map<string, ProjectEntries>();
  private readonly generations = new Map<string, number>();
  private readonly maxProjects: number;
  private readonly maxEntries: number;
  private readonly disabled: boolean;
  /** Bumped by clear(), so reads in flight across a clear() do not cache what they saw. */
  private epoch = 0;

  constructor(private readonly store: DocumentStore, options: DocumentCacheOptions = {}) {
    this.maxProjects = options.maxProjects ?? 2_000;
    this.maxEntries = options.maxEntriesPerProject ?? 5_000;
    this.disabled = options.disabled ?? false;
  }

  async find(ref: ProjectRef, path: string): Promise<StoredDocument | null> {
    const entries = this.entries(ref);
    if (!entries) return this.store.find(ref, path);
    if (entries.lookups.has(path)) return entries.lookups.get(path)!;
    const stamp = this.stamp(ref.projectId);
    const doc = await this.store.find(ref, path);
    if (this.unchangedSince(ref.projectId, stamp)) this.remember(ref).lookups.set(path, doc);
    return doc;
  }

  async listByPrefix(ref: ProjectRef, prefix: string): Promise<readonly StoredDocument[]> {
    const entries = this.entries(ref);
    if (!entries) return this.store.listByPrefix(ref, prefix);
    const cached = entries.listings.get(prefix);
    if (cached) return cached;
    const stamp = this.stamp(ref.projectId);
    const docs = Object.freeze(await this.store.listByPrefix(ref, prefix));
    if (this.unchangedSince(ref.projectId, stamp)) this.remember(ref).listings.set(prefix, docs);
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
    const existing = this.projects.get(ref.projectId);
    if (existing) {
      if (existing.tenantId !== ref.tenantId) return null;
      // Re-insert to mark as most recently used (Map keeps insertion order).
      this.projects.delete(ref.projectId);
      this.projects.set(ref.projectId, existing);
      return existing;
    }
    return { tenantId: ref.tenantId, generation: this.generationOf(ref.projectId), lookups: new Map(), listings: new Map() };
  }

  private remember(ref: ProjectRef): ProjectEntries {
    const projectId = ref.projectId;
    let entries = this.projects.get(projectId);
    if (!entries || entries.lookups.size + entries.listings.size >= this.maxEntries) {
      entries = { tenantId: ref.tenantId, generation: this.generationOf(projectId), lookups: new Map(), listings: new Map() };
      this.projects.set(projectId, entries);
      if (this.projects.size > this.maxProjects) {
        const oldest = this.projects.keys().next().value as string;
        this.projects.delete(oldest);
      }
    }
    return entries;
  }
}
