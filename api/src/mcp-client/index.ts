/**
 * Vance as an MCP client (issue 19 part 2): MCP tool packs (`_vance/tools/<pack>.mcp.yaml`) as a
 * ToolSource, their connections pooled per tenant. Vance as an MCP server (skills over MCP) is
 * api/src/mcp/. Nothing here imports the SDK at load: it is loaded with the first pack (mcp-sdk.ts).
 */
export { ALLOW_STDIO_SETTING, McpPackSource, type McpPackSourceDeps } from './mcp-pack-source';
export { McpConnectionPool, type McpPoolOptions } from './mcp-connection-pool';
export { McpCallError, McpConnection, type McpConnectionOptions, type McpEndpoint, type ListedMcpTool } from './mcp-connection';
export { loadMcpSdk, mcpSdkLoaded } from './mcp-sdk';
