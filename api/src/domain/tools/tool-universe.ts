/**
 * The tools of every ToolSource for one cascade scope, merged and kept between turns (issue 19,
 * DESIGN §4): a turn asks for its scope's tools and, warm, gets the same ToolSet back without reading
 * or parsing a document. The sources are a list (documents, MCP packs, …): adding one is one line in
 * services.ts. First source wins a name; a name the built-ins have is never taken (the registry's wins).
 *
 * Invalidation follows SkillSetCache's: `onDocumentChanged` drops the scopes of a project when a
 * document under `_vance/tools/` changes there (local writes, and other instances' through the bus),
 * `clear` when the bus reports missed events; a generation per project keeps a listing that raced
 * with a write from being stored. A set with problems (a pack that is down) is kept only briefly,
 * so the source is asked again soon instead of on the next write.
 */
import { LRUCache } from 'lru-cache';
import type { CascadeScope } from '../cascade/scope';
import type { Principal } from '../identity/principal';
import { TOOLS_PREFIX } from './tool-document';
import type { SourcedTool, ToolSet, ToolSource, ToolSourceProblem } from './tool-source';

export interface ToolUniverseOptions {
  /** Scopes kept (LRU). */
  readonly maxScopes?: number;
  /** How long a set with problems is kept (ms). */
  readonly problemTtlMs?: number;
}

interface Entry {
  readonly projects: readonly string[];
  readonly set: ToolSet;
}

export const EMPTY_TOOL_SET: ToolSet = Object.freeze({ tools: Object.freeze([]), problems: Object.freeze([]) });

export class ToolUniverse {
  private readonly entries: LRUCache<string, Entry>;
  private readonly pending = new Map<string, { readonly stamp: string; readonly promise: Promise<ToolSet> }>();
  private readonly generations = new Map<string, number>();
  private readonly problemTtlMs: number;
  private epoch = 0;
  private listings = 0;

  constructor(private readonly sources: readonly ToolSource[], options: ToolUniverseOptions = {}) {
    this.entries = new LRUCache({ max: options.maxScopes ?? 1_000, ttlAutopurge: false });
    this.problemTtlMs = options.problemTtlMs ?? 30_000;
    // A source's tools that change without a write (an MCP server's list_changed): that tenant's scopes go.
    for (const source of sources) source.onToolsChanged?.((tenantId) => this.onTenantToolsChanged(tenantId));
  }

  /** Drops every cached scope of `tenantId`; a listing under way is not stored. */
  onTenantToolsChanged(tenantId: string): void {
    this.epoch++;
    for (const [key] of [...this.entries.entries()]) if (key.startsWith(`${tenantId}\u0000`)) this.entries.delete(key);
  }

  /** The sources' tools in `scope`; `principal` is asked for only when the scope is not cached. */
  toolsFor(scope: CascadeScope, principal: () => Promise<Principal>, signal?: AbortSignal): Promise<ToolSet> {
    if (this.sources.length === 0) return Promise.resolve(EMPTY_TOOL_SET);
    const key = scopeKey(scope);
    const entry = this.entries.get(key);
    if (entry) return Promise.resolve(entry.set);
    const projects = projectsOf(scope);
    const stamp = this.stamp(projects);
    const pending = this.pending.get(key);
    if (pending?.stamp === stamp) return pending.promise;
    const promise = this.load(key, scope, projects, stamp, principal, signal);
    this.pending.set(key, { stamp, promise });
    return promise;
  }

  /** Wire to DOCUMENT_CHANGED_TOPIC. */
  onDocumentChanged(event: { readonly projectId: string; readonly path: string }): void {
    if (!event.path.startsWith(TOOLS_PREFIX)) return;
    this.generations.set(event.projectId, (this.generations.get(event.projectId) ?? 0) + 1);
    const stale = [...this.entries.entries()].filter(([, entry]) => entry.projects.includes(event.projectId));
    for (const [key] of stale) this.entries.delete(key);
  }

  /** Wire to EventBus.onMissedEvents. */
  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** How many times the sources were asked — for tests. */
  get loads(): number {
    return this.listings;
  }

  private async load(
    key: string, scope: CascadeScope, projects: readonly string[], stamp: string, principal: () => Promise<Principal>, signal?: AbortSignal,
  ): Promise<ToolSet> {
    try {
      this.listings++;
      const who = await principal();
      const sets = await Promise.all(this.sources.map((source) => source.toolsFor(who, scope, signal).catch((error: unknown): ToolSet => ({
        tools: [], problems: [{ path: TOOLS_PREFIX, message: `a tool source failed: ${error instanceof Error ? error.message : String(error)}` }],
      }))));
      const set = merge(sets);
      if (this.stamp(projects) === stamp) {
        this.entries.set(key, { projects, set }, set.problems.length > 0 ? { ttl: this.problemTtlMs } : {});
      }
      return set;
    } finally {
      if (this.pending.get(key)?.stamp === stamp) this.pending.delete(key);
    }
  }

  private stamp(projects: readonly string[]): string {
    return `${this.epoch}:${projects.map((p) => this.generations.get(p) ?? 0).join(',')}`;
  }
}

function merge(sets: readonly ToolSet[]): ToolSet {
  const tools: SourcedTool[] = [];
  const problems: ToolSourceProblem[] = [];
  const seen = new Set<string>();
  for (const set of sets) {
    problems.push(...set.problems);
    for (const tool of set.tools) {
      if (seen.has(tool.name)) {
        problems.push({ path: tool.origin.path ?? TOOLS_PREFIX, message: `tool '${tool.name}' is defined by an earlier source too; that one is used` });
        continue;
      }
      seen.add(tool.name);
      tools.push(tool);
    }
  }
  return Object.freeze({ tools: Object.freeze(tools), problems: Object.freeze(problems) });
}

function scopeKey(scope: CascadeScope): string {
  // The user's project too: a source may answer per principal (the scope's user), so users do not share entries.
  return `${scope.tenantId}\u0000${scope.userProjectId ?? ''}\u0000${scope.projectId ?? ''}\u0000${scope.tenantProjectId}`;
}

function projectsOf(scope: CascadeScope): string[] {
  return [scope.userProjectId, scope.projectId, scope.tenantProjectId].filter((p): p is string => p !== null);
}
