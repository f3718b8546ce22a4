import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import { DomainError, type ErrorCategory } from '../domain/errors';

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
      },
    };
  }
  if (original === undefined || original instanceof GraphQLError) {
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

function originalError(error: unknown): unknown {
  let current = error;
  while (current instanceof GraphQLError && current.originalError) current = current.originalError;
  return current instanceof GraphQLError ? undefined : current;
}
