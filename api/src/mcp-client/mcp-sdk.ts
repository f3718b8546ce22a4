/**
 * The MCP SDK, loaded on first use (issue 18: start time and memory are measured targets). A server
 * that never meets a pack never loads it; build-bundle.ts keeps it out of the server bundle, so the
 * first pack of the process pays the load once (tens of milliseconds), not every start.
 */
async function load() {
  const [client, http] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  return {
    Client: client.Client,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    /** Loaded only when a stdio pack is allowed and used. */
    stdio: async () => (await import('@modelcontextprotocol/sdk/client/stdio.js')).StdioClientTransport,
  };
}

/** The SDK's client parts (the ESM build's types: `import()` loads that build from this CommonJS file). */
export type McpSdk = Awaited<ReturnType<typeof load>>;
export type McpClient = InstanceType<McpSdk['Client']>;

let loading: Promise<McpSdk> | null = null;

export function loadMcpSdk(): Promise<McpSdk> {
  const pending = loading ?? load();
  loading = pending;
  // A failed load (a broken install) is retried by the next pack, not remembered forever.
  pending.catch(() => { if (loading === pending) loading = null; });
  return pending;
}

/** Whether the SDK has been loaded in this process (the start-time test asserts it was not). */
export function mcpSdkLoaded(): boolean {
  return loading !== null;
}
