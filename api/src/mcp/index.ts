/**
 * Vance as an MCP server (issue 19): `/mcp`, the Skills extension. graphql/server.ts loads this folder
 * with the first request to `/mcp` (issue 18: the SDK costs a start nothing).
 */
export { createMcpEndpoint, McpEndpoint, PROJECT_HEADER, PROJECT_PARAMETER, type McpEndpointOptions } from './mcp-endpoint';
export { CACHE_HINTS, META, SKILLS_EXTENSION } from './skills-extension';
export { parseSkillUri, skillUri, SKILL_SCHEME } from './skill-uri';
