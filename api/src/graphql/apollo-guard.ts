/**
 * The request guard (`request-guard.ts`) on HTTP, as an Apollo plugin. The operation limits run in
 * parsingDidStart (tokens, before Apollo parses) and validationDidStart (the rest, before Apollo's
 * validation); Apollo skips both for a document it has already validated, which is right: the limits
 * depend on the text alone. The introspection policy and the budgets depend on the caller and run
 * in didResolveOperation, on every request.
 *
 * A refusal from didResolveOperation becomes the response (Apollo's documented behaviour). One from
 * parsingDidStart or validationDidStart would become "Internal server error": Apollo hands it to
 * unexpectedErrorProcessingRequest first, where this plugin throws it on — the way graphql-armor's own
 * Apollo plugin answers its token limit — and Apollo then answers it as the request's error. Each
 * refusal's `extensions.http` (stripped before formatGraphQLError) sets the status: 400 for an
 * operation limit, 429 with Retry-After for a spent rate budget.
 */
import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { DomainError, LimitExceededError, type ErrorCategory } from '../domain/errors';
import { isAuthenticated, type GraphQLContext } from './context';
import { withoutSuggestions } from './errors';
import type { RequestGuard } from './request-guard';

export function apolloGuardPlugin(guard: RequestGuard): ApolloServerPlugin<GraphQLContext> {
  const refusals = new WeakSet<Error>();
  const refuse = (error: GraphQLError): never => {
    const refusal = withStatus(error, 400);
    refusals.add(refusal);
    throw refusal;
  };
  return {
    unexpectedErrorProcessingRequest: async ({ error }) => {
      if (refusals.has(error)) throw error;
    },
    requestDidStart: async () => ({
      parsingDidStart: async ({ source }) => {
        const refused = guard.limits.checkSource(source);
        if (refused) refuse(refused);
      },
      validationDidStart: async ({ schema, document }) => {
        const refused = guard.limits.checkDocument(schema, document);
        if (refused) refuse(refused);
      },
      didResolveOperation: async ({ document, operation, contextValue }) => {
        if (!operation) return; // execution reports the unknown operation name
        try {
          await guard.admit(document, operation, contextValue);
        } catch (err) {
          throw err instanceof DomainError ? domainRefusal(err) : err;
        }
      },
      didEncounterErrors: async ({ errors, contextValue }) => {
        if (!errors.some((e) => withoutSuggestions(e.message) !== e.message)) return;
        if (await isAuthenticated(contextValue)) return;
        for (const error of errors) error.message = withoutSuggestions(error.message);
      },
    }),
  };
}

const STATUS: Record<ErrorCategory, number> = { BAD_INPUT: 400, UNAUTHENTICATED: 401, FORBIDDEN: 403, NOT_FOUND: 404, CONFLICT: 409, RATE_LIMITED: 429, UNAVAILABLE: 503 };

function domainRefusal(error: DomainError): GraphQLError {
  const headers: [string, string][] = error instanceof LimitExceededError && error.retryAfterMs !== null
    ? [['retry-after', String(Math.ceil(error.retryAfterMs / 1000))]]
    : [];
  return new GraphQLError(error.message, { originalError: error, extensions: { http: { status: STATUS[error.category], headers: new HeaderMap(headers) } } });
}

function withStatus(error: GraphQLError, status: number): GraphQLError {
  return new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status, headers: new HeaderMap() } } });
}
