import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { DomainError } from '../domain/errors';

/**
 * The MCP endpoint's one error mapping (as graphql/errors.ts is GraphQL's): a domain error keeps its
 * code in the message and in `data.code` (`NOT_FOUND: Project 'x' not found`), as GraphQL keeps it in
 * `extensions.code`; anything else is logged and masked as an internal error.
 */
export function toMcpError(err: unknown, logger: Logger): McpError {
  if (err instanceof McpError) return err;
  if (err instanceof DomainError) {
    const code = err.category === 'NOT_FOUND' || err.category === 'BAD_INPUT' || err.category === 'FORBIDDEN' ? ErrorCode.InvalidParams : ErrorCode.InternalError;
    return new McpError(code, `${err.category}: ${err.message}`, { code: err.category, domainCode: err.code });
  }
  logger.error({ err }, 'MCP request failed');
  return new McpError(ErrorCode.InternalError, 'Internal error');
}

/** The JSON-RPC error body of a refusal made before a session exists (HTTP 401, 404). */
export function jsonRpcError(id: unknown, code: number, message: string, data?: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: '2.0', id: typeof id === 'string' || typeof id === 'number' ? id : null, error: { code, message, ...(data ? { data } : {}) } };
}
