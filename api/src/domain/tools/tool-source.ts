/**
 * Tools a turn gets beyond the built-ins, per cascade scope (issue 19, seed 004 §6): server tools
 * that tenants and projects define as documents (`_vance/tools/<name>.yaml`) and the tools of MCP
 * tool packs (`_vance/tools/<pack>.mcp.yaml`). Each source answers for one scope; the turn merges
 * the built-ins, every source's tools and the session's client tools into the universe its `@label`,
 * name and prefix selectors resolve against. A source that cannot answer fully (a pack that is down,
 * a document that does not parse) still returns what it has and says why in `problems`, so one bad
 * document or server never takes the other tools of the turn with it.
 */
import type { CascadeScope } from '../cascade/scope';
import type { Principal } from '../identity/principal';
import type { ServerTool } from './server-tool';

/** Where a tool comes from, as previews and the dashboard show it. */
export type ToolOriginKind = 'BUILTIN' | 'DOCUMENT' | 'MCP_PACK' | 'CLIENT' | 'SCRIPT' | 'PICKER';

export interface ToolOrigin {
  readonly kind: ToolOriginKind;
  /** The layer that holds the defining document (DOCUMENT, MCP_PACK): TENANT, PROJECT, … */
  readonly layer?: string;
  /** The defining document's path (DOCUMENT, MCP_PACK). */
  readonly path?: string;
  /** The pack's name (MCP_PACK). */
  readonly pack?: string;
}

/** A tool of a source: a ServerTool that says where it comes from. */
export interface SourcedTool extends ServerTool {
  readonly origin: ToolOrigin;
}

export interface ToolSourceProblem {
  /** The document or pack the problem is about, e.g. `_vance/tools/web.mcp.yaml`. */
  readonly path: string;
  readonly message: string;
}

export interface ToolSet {
  readonly tools: readonly SourcedTool[];
  readonly problems: readonly ToolSourceProblem[];
}

export interface ToolSource {
  /** The tools visible in `scope` for `principal`, first hit in the cascade by name. */
  toolsFor(principal: Principal, scope: CascadeScope, signal?: AbortSignal): Promise<ToolSet>;
  /**
   * Optional: tells `listener` when a tenant's tools changed without a document write (an MCP server
   * announced a new tool list), so a cache of toolsFor answers (ToolUniverse) drops that tenant's.
   * Returns the unsubscribe.
   */
  onToolsChanged?(listener: (tenantId: string) => void): () => void;
}
