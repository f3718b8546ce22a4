// A stdio MCP server for tests (the SDK's own McpServer over StdioServerTransport): one tool, `where`,
// that answers with this process's id, so a test can tell a stdio pack ran in a process of its own.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import process from 'node:process';

const server = new McpServer({ name: 'stdio-test-pack', version: '1.0.0' });
server.registerTool('where', { description: 'Says which process answers' }, async () => ({ content: [{ type: 'text', text: `pid ${process.pid}` }] }));
await server.connect(new StdioServerTransport());
