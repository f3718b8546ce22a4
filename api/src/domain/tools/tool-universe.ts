/**
 * The tools of every ToolSource for one cascade scope, merged and kept between turns (issue 19,
 * DESIGN §4): a turn asks for its scope's tools and, warm, gets the same ToolSet back without reading
 * or parsing a document. The sources are a list (documents, MCP packs, …): adding one is one line in
 * services.ts. First source wins a name; a name the built-ins have is never taken (the registry's
 * wins), and a tool whose parameters are not an object schema is not offered — both said as a
 * problem, here once for turns, previews and the tools page alike.
 *
 * Invalidation (ScopeCache, as SkillSetCache's): `onDocumentChanged` drops the scopes of a project
 * when a document under `_vance/tools/` changes there (local writes, and other instances' through
 * the bus), `clear` when the bus reports missed events. A set with problems (a pack that is down) is kept only briefly,
 * so the source is asked again soon instead of on the next write.
 */
import type { CascadeScope } from '../cascade/scope';
import { ScopeCache } from '../cascade/scope-cache';
import type { Principal } from '../identity/principal';
import { TOOLS_PREFIX } from './tool-document';
import type { ToolCatalog, ToolDescriptor } from './tool-descriptor';
import type { SourcedTool, ToolSet, ToolSource, ToolSourceProblem } from './tool-source';

export interface ToolUniverseOptions {
  /** The built-in tools: their names are never taken by a source. */
  readonly builtins?: ToolCatalog;
  /** Scopes kept (LRU). */
  readonly maxScopes?: number;
  /** How long a set with problems is kept (ms). */
  readonly problemTtlMs?: number;
}

export const EMPTY_TOOL_SET: ToolSet = Object.freeze({ tools: Object.freeze([]), problems: Object.freeze([]) });

export class ToolUniverse {
  private readonly sets: ScopeCache<ToolSet>;

  constructor(private readonly sources: readonly ToolSource[], private readonly options: ToolUniverseOptions = {}) {
    const problemTtlMs = options.problemTtlMs ?? 30_000;
    this.sets = new ScopeCache<ToolSet>({
      ...(options.maxScopes !== undefined ? { maxScopes: options.maxScopes } : {}),
      ttlOf: (set) => (set.problems.length > 0 ? problemTtlMs : undefined),
    });
    // A source's tools that change without a write (an MCP server's list_changed): that tenant's scopes go.
    for (const source of sources) source.onToolsChanged?.((tenantId) => this.onTenantToolsChanged(tenantId));
  }

  /** Drops every cached scope of `tenantId`; a listing under way is not stored. */
  onTenantToolsChanged(tenantId: string): void {
    this.sets.invalidateTenant(tenantId);
  }

  /** The sources' tools in `scope`; `principal` is asked for only when the scope is not cached. */
  toolsFor(scope: CascadeScope, principal: () => Promise<Principal>, signal?: AbortSignal): Promise<ToolSet> {
    if (this.sources.length === 0) return Promise.resolve(EMPTY_TOOL_SET);
    // The scope's key includes its user's project: a source may answer per principal, so users do not share sets.
    return this.sets.get(scope, async () => {
      const who = await principal();
      const sets = await Promise.all(this.sources.map((source) => source.toolsFor(who, scope, signal).catch((error: unknown): ToolSet => ({
        tools: [], problems: [{ path: TOOLS_PREFIX, message: `a tool source failed: ${error instanceof Error ? error.message : String(error)}` }],
      }))));
      return merge(sets, new Set((this.options.builtins?.list() ?? []).map((t) => t.name)));
    });
  }

  /** Wire to DOCUMENT_CHANGED_TOPIC. */
  onDocumentChanged(event: { readonly projectId: string; readonly path: string }): void {
    if (event.path.startsWith(TOOLS_PREFIX)) this.sets.invalidateProject(event.projectId);
  }

  /** Wire to EventBus.onMissedEvents. */
  clear(): void {
    this.sets.clear();
  }

  /** How many times the sources were asked — for tests. */
  get loads(): number {
    return this.sets.loads;
  }
}

/** A source's tool as the selectors and previews see it: labels lower-cased, like the registry's. */
export function descriptorOf(tool: SourcedTool): ToolDescriptor {
  return { name: tool.name, labels: tool.labels.map((l) => l.toLowerCase()), description: tool.description, ...(tool.deferred ? { deferred: true } : {}) };
}

function merge(sets: readonly ToolSet[], builtins: ReadonlySet<string>): ToolSet {
  const tools: SourcedTool[] = [];
  const problems: ToolSourceProblem[] = [];
  const seen = new Set<string>();
  for (const set of sets) {
    problems.push(...set.problems);
    for (const tool of set.tools) {
      const path = tool.origin.path ?? TOOLS_PREFIX;
      if (builtins.has(tool.name)) {
        problems.push({ path, message: `tool '${tool.name}' is a built-in tool's name; the built-in is used` });
        continue;
      }
      if (tool.parameters['type'] !== 'object') {
        problems.push({ path, message: `tool '${tool.name}': its parameters are not a JSON schema of type object; it is not offered` });
        continue;
      }
      if (seen.has(tool.name)) {
        problems.push({ path, message: `tool '${tool.name}' is defined by an earlier source too; that one is used` });
        continue;
      }
      seen.add(tool.name);
      tools.push(tool);
    }
  }
  return Object.freeze({ tools: Object.freeze(tools), problems: Object.freeze(problems) });
}
