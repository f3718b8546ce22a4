/**
 * MCP tool packs as a ToolSource (domain/tools/tool-source.ts; issue 19 part 2, seed 004 §6.2): the
 * pack documents `_vance/tools/<pack>.mcp.yaml` of the TENANT (VANCE), PROJECT and bundled layers,
 * first hit by pack name, each connected through the tenant's pool and its tools offered as
 * `<pack>_<tool>` with the labels `mcp`, `mcp:<pack>` and the pack's own.
 *
 * - The USER layer is not read: a pack opens connections from the server, which a tenant or project
 *   decides, not one user's private documents.
 * - stdio packs run a process on this host: only when the tenant's `tools.mcp.allowStdio` is on
 *   (tenant setting or the server default; a project setting cannot turn it on). Off by default.
 * - Header secrets follow the binding rule of HTTP tool documents (domain/tools/secret-binding.ts): a
 *   secret setting goes only to the origins its `<key>.origins` setting (in the secret's own layer)
 *   names; a project's pack cannot read the tenant's token by pointing its url elsewhere. Headers go
 *   only to the pack's origin; a redirect elsewhere is not followed.
 * - A pack that cannot answer (document error, policy, server down, connect timeout) gives no tools
 *   and a problem; the other packs and tools are not held up beyond its connect timeout.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { CascadeHit, DocumentCascade } from '../domain/cascade';
import type { CascadeScope } from '../domain/cascade/scope';
import type { Principal } from '../domain/identity/principal';
import { DomainError } from '../domain/errors';
import type { SettingsReader } from '../domain/settings/settings-reader';
import { parseBooleanish } from '../domain/shared/booleanish';
import { MCP_PACK_PATH_PATTERN, MCP_PACK_PREFIX, mcpToolLabels, parseMcpPack, type McpPack, type ParseMcpPackResult } from '../domain/tools/mcp-pack';
import { mcpToolNames } from '../domain/tools/mcp-tool-names';
import type { ToolResult } from '../domain/tools/server-tool';
import type { SourcedTool, ToolSet, ToolSource, ToolSourceProblem } from '../domain/tools/tool-source';
import { resolveHeaders } from '../domain/tools/secret-binding';
import type { HeaderTemplate } from '../domain/tools/tool-document';
import type { McpConnectionPool } from './mcp-connection-pool';
import type { McpConnection, McpEndpoint } from './mcp-connection';

/** The tenant policy setting that allows stdio packs (default off). */
export const ALLOW_STDIO_SETTING = 'tools.mcp.allowStdio';
/** Most tools taken from one pack's server. */
const MAX_TOOLS_PER_PACK = 200;

export interface McpPackSourceDeps {
  readonly cascade: Pick<DocumentCascade, 'listByPrefixCascade'>;
  /** Settings of a tenant (projectId null) or a project, cascaded as SettingsService.reader does. */
  settings(tenantId: string, projectId: string | null): SettingsReader;
  readonly pool: McpConnectionPool;
}

type Resolved = { readonly ok: true; readonly endpoint: McpEndpoint } | { readonly ok: false; readonly problem: string };

export class McpPackSource implements ToolSource {
  /** Parsed pack documents by (layer project, path, version): a turn does not re-parse them. */
  private readonly parsed = new LRUCache<string, ParseMcpPackResult>({ max: 1_000 });
  private readonly listeners = new Set<(tenantId: string) => void>();

  constructor(private readonly deps: McpPackSourceDeps) {}

  onToolsChanged(listener: (tenantId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async toolsFor(_principal: Principal, scope: CascadeScope, signal?: AbortSignal): Promise<ToolSet> {
    const hits = (await this.deps.cascade.listByPrefixCascade({ ...scope, userProjectId: null }, MCP_PACK_PREFIX))
      .filter((hit) => MCP_PACK_PATH_PATTERN.test(hit.document.path));
    if (hits.length === 0) return { tools: [], problems: [] };
    const answers = await Promise.all(hits.map((hit) => this.packTools(scope, hit, signal)));
    return { tools: answers.flatMap((a) => a.tools), problems: answers.flatMap((a) => a.problems) };
  }

  private async packTools(scope: CascadeScope, hit: CascadeHit, signal?: AbortSignal): Promise<ToolSet> {
    const { document } = hit;
    const problem = (message: string): ToolSet => ({ tools: [], problems: [{ path: document.path, message }] });
    const parsed = this.parse(hit);
    if (!parsed.enabled) return { tools: [], problems: [] };
    if (!parsed.pack) {
      const first = parsed.diagnostics.find((d) => d.severity === 'ERROR');
      return problem(`The pack does not validate${first ? ` (line ${first.line ?? '?'}${first.field ? `, ${first.field}` : ''}: ${first.message})` : ''}`);
    }
    const pack = parsed.pack;
    const tenantId = scope.tenantId;
    const slot = `${document.layer}|${document.projectId ?? ''}|${document.path}`;
    // Resolved at every call, not only when the tools are listed: the tools outlive a connection and a
    // setting (ToolUniverse keeps them until `_vance/tools/` changes), so the stdio policy and the secret
    // binding are checked as they are now, a changed header opens a new connection (a new key), and a
    // connection the server dropped is replaced. Settings reads are cached (SettingsService), so this is cheap.
    const connect = async (): Promise<McpConnection> => {
      const resolved = await this.endpoint(scope, pack);
      if (!resolved.ok) throw new PackRefusedError(resolved.problem);
      const key = createHash('sha256').update(JSON.stringify([slot, document.version, resolved.endpoint, pack.connectTimeoutMs])).digest('hex');
      return this.deps.pool.connection(tenantId, slot, key, {
        endpoint: resolved.endpoint, connectTimeoutMs: pack.connectTimeoutMs, maxTools: MAX_TOOLS_PER_PACK,
        onToolsChanged: () => { for (const listener of this.listeners) listener(tenantId); },
      });
    };
    let connection: McpConnection;
    try {
      connection = await untilAborted(connect(), signal);
    } catch (error) {
      if (error instanceof PackRefusedError) return problem(error.message);
      return problem(`MCP pack '${pack.name}' is not reachable: ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.toolsOf(hit, pack, connection, connect);
  }

  private toolsOf(hit: CascadeHit, pack: McpPack, connection: McpConnection, connect: () => Promise<McpConnection>): ToolSet {
    const { tools: listed, truncated } = connection.listTools();
    const include = new Set(pack.include);
    const exclude = new Set(pack.exclude);
    const chosen = listed.filter((t) => (include.size === 0 || include.has(t.name)) && !exclude.has(t.name));
    const names = mcpToolNames(pack.name, chosen.map((t) => t.name));
    const labels = mcpToolLabels(pack);
    const origin = { kind: 'MCP_PACK' as const, layer: hit.source, path: hit.document.path, pack: pack.name };
    const tools = chosen.map((listedTool): SourcedTool => ({
      name: names.get(listedTool.name)!,
      description: listedTool.description || `${listedTool.name} (MCP pack ${pack.name})`,
      labels, parameters: listedTool.inputSchema, deferred: pack.deferred, origin,
      invoke: async (args, ctx): Promise<ToolResult> => {
        try {
          return await (await connect()).call(listedTool.name, args, pack.timeoutMs, ctx.signal);
        } catch (error) {
          return { content: `MCP pack '${pack.name}', tool '${listedTool.name}' failed: ${error instanceof Error ? error.message : String(error)}`, isError: true };
        }
      },
    }));
    const problems: ToolSourceProblem[] = truncated
      ? [{ path: hit.document.path, message: `MCP pack '${pack.name}' lists more than ${MAX_TOOLS_PER_PACK} tools; only the first ${MAX_TOOLS_PER_PACK} are offered (narrow it with include)` }]
      : [];
    return { tools, problems };
  }

  private parse(hit: CascadeHit): ParseMcpPackResult {
    const { document } = hit;
    const cacheKey = `${document.layer}|${document.projectId ?? ''}|${document.path}|${document.version}`;
    let parsed = this.parsed.get(cacheKey);
    if (!parsed) this.parsed.set(cacheKey, (parsed = parseMcpPack(document.path, document.content)));
    return parsed;
  }

  /** The server to connect to, with its headers resolved — or why the pack may not connect. */
  private async endpoint(scope: CascadeScope, pack: McpPack): Promise<Resolved> {
    const server = pack.server;
    if (server.transport === 'stdio') {
      const allowed = parseBooleanish(await this.deps.settings(scope.tenantId, null).get(ALLOW_STDIO_SETTING));
      if (allowed !== true) {
        return { ok: false, problem: `MCP pack '${pack.name}' runs a local command (stdio), which this tenant does not allow; a tenant admin can turn on the setting ${ALLOW_STDIO_SETTING}` };
      }
      return { ok: true, endpoint: { transport: 'stdio', command: server.command, args: server.args } };
    }
    const settings = this.deps.settings(scope.tenantId, scope.projectId === scope.tenantProjectId ? null : scope.projectId);
    // One rule with HTTP tool documents (secret-binding.ts): a secret goes only to the origins its
    // `<key>.origins` setting, in the secret's own layer, binds it to.
    const templates: HeaderTemplate[] = Object.entries(server.headers).map(([name, value]) => ({
      name, parts: value.kind === 'literal' ? [{ text: value.value }] : [{ text: value.prefix }, { setting: value.setting }],
    }));
    let headers: Readonly<Record<string, string>>;
    try {
      headers = (await resolveHeaders(templates, settings, new URL(server.url).origin)).headers;
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { ok: false, problem: `MCP pack '${pack.name}' is not connected: ${error.message}` };
    }
    return { ok: true, endpoint: { transport: 'http', url: server.url, headers } };
  }
}

/** The pack may not connect now (policy, secret binding, a missing setting): its message says why. */
class PackRefusedError extends Error {}

/** `promise`, or a rejection once `signal` aborts (the connection attempt itself goes on in the pool). */
function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new Error('the turn was cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('the turn was cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
