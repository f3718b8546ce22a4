import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import { DomainError, LimitExceededError, type ErrorCategory } from '../domain/errors';

/**
 * The one place that turns domain errors into GraphQL errors (DESIGN §5), used by HTTP (Apollo's
 * formatError) and WebSocket (graphql-ws onNext/onError) alike. Unexpected errors are logged with
 * their stack and masked.
 */
const CODE_OF_CATEGORY: Record<ErrorCategory, string> = {
  BAD_INPUT: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'RATE_LIMITED',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown, logger: Logger): GraphQLFormattedError {
  const original = originalError(error);
  if (original instanceof DomainError) {
    return {
      message: original.message,
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: {
        code: CODE_OF_CATEGORY[original.category],
        domainCode: original.code,
        diagnostics: original.diagnostics.map((d) => ({ severity: d.severity, message: d.message, path: d.path ?? null, line: d.line ?? null, column: d.column ?? null, field: d.field ?? null })),
        ...(original instanceof LimitExceededError ? limitExtensions(original) : {}),
      },
    };
  }
  if (original === undefined) {
    // Parse/validation errors and GraphQL's own coercion errors: already safe to show.
    const code = formatted.extensions?.code ?? 'BAD_USER_INPUT';
    return { ...formatted, extensions: { ...formatted.extensions, code } };
  }
  logger.error({ err: original, path: formatted.path }, 'unexpected error in a GraphQL operation');
  return {
    message: 'Internal server error',
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  };
}

function limitExtensions(error: LimitExceededError): Record<string, unknown> {
  return { limit: error.limit, max: error.max, ...(error.retryAfterMs !== null ? { retryAfterMs: error.retryAfterMs } : {}) };
}

/**
 * GraphQL's "Did you mean …?" hints name fields, types and enum values an anonymous caller was not
 * shown (introspection is for authenticated callers); they are cut from its errors (issue 13).
 */
export function withoutSuggestions(message: string): string {
  const at = message.indexOf(' Did you mean ');
  return at < 0 ? message : message.slice(0, at);
}

/**
 * The error a resolver threw, or undefined for GraphQL's own errors. Checked by shape, not with
 * instanceof: Apollo may load graphql's ESM build while we load its CJS build (two GraphQLError classes).
 */
function originalError(error: unknown): unknown {
  let current = error;
  while (isGraphQLError(current) && current.originalError) current = current.originalError;
  return isGraphQLError(current) ? undefined : current;
}

function isGraphQLError(value: unknown): value is GraphQLError {
  if (value instanceof GraphQLError) return true;
  // Apollo's own subclasses (ValidationError, SyntaxError, UserInputError) name themselves after their
  // class: without this an unknown field in a query was masked as INTERNAL_SERVER_ERROR.
  return value instanceof Error && (value.name === 'GraphQLError' || ('extensions' in value && 'locations' in value && 'nodes' in value));
}
