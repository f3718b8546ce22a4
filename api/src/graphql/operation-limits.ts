/**
 * Operation limits (DESIGN §6, issue 13): how much one document may ask for — tokens, depth,
 * aliases, fields (cost) and directives. Checked before GraphQL's own validation (some of its rules
 * grow faster than the document), before authentication and before execution, on HTTP
 * (`apollo-guard.ts`) and graphql-ws (`ws-server.ts`) alike. The request body / message size
 * (`maxRequestBytes`) is enforced earlier still, by `http-body.ts` and `ws`'s `maxPayload`.
 *
 * The depth, alias, cost and directive rules are graphql-armor's; the refusal is ours: the first
 * limit hit aborts the check with one BAD_USER_INPUT that names it (`extensions.limit`, `.max`).
 * Tokens are counted here with graphql's lexer rather than armor's parser subclass, which parses
 * the whole document a second time: the count stops at the first token over the limit, so a
 * 1.5 MB document costs what a small one does.
 */
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { GraphQLError, Lexer, Source, TokenKind, validate, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import type { OperationLimitsConfig } from '../config';

export type OperationLimit = keyof OperationLimitsConfig | 'maxRequestBytes' | 'maxAnonymousRequestBytes';

const UNIT: Record<OperationLimit, string> = {
  maxTokens: 'tokens',
  maxDepth: 'levels of nested fields',
  maxAliases: 'aliases',
  maxCost: 'fields',
  maxDirectives: 'directives',
  maxRequestBytes: 'bytes',
  maxAnonymousRequestBytes: 'bytes without a token',
};

/** The refusal of every operation limit: BAD_USER_INPUT naming the limit and its maximum. */
export function operationLimitError(limit: OperationLimit, max: number): GraphQLError {
  return new GraphQLError(`Operation refused: more than ${max} ${UNIT[limit]} (limit ${limit})`, {
    extensions: { code: 'BAD_USER_INPUT', limit, max },
  });
}

export function isOperationLimitError(error: unknown): error is GraphQLError {
  return error instanceof GraphQLError && typeof error.extensions.limit === 'string' && error.extensions.code === 'BAD_USER_INPUT';
}

export class OperationLimits {
  private readonly rules: readonly ValidationRule[];

  constructor(readonly config: OperationLimitsConfig) {
    const refuse = (limit: OperationLimit, max: number) => [() => { throw operationLimitError(limit, max); }];
    this.rules = new ApolloArmor({
      maxTokens: { enabled: false }, // counted before parsing, see checkSource
      blockFieldSuggestion: { enabled: false }, // per caller: anonymous callers only (errors.ts withoutSuggestions)
      maxAliases: { n: config.maxAliases, onReject: refuse('maxAliases', config.maxAliases) },
      // graphql's own MaxIntrospectionDepthRule bounds introspection's list nesting; its TypeRef
      // fragments are 21 levels deep, which would otherwise set the floor for everyone.
      maxDepth: { n: config.maxDepth, flattenFragments: true, ignoreIntrospection: true, onReject: refuse('maxDepth', config.maxDepth) },
      // Every field costs 1 (no depth factor), so the limit reads as "fields selected".
      costLimit: {
        maxCost: config.maxCost, objectCost: 1, scalarCost: 1, depthCostFactor: 1, flattenFragments: true, ignoreIntrospection: false,
        onReject: refuse('maxCost', config.maxCost),
      },
      maxDirectives: { n: config.maxDirectives, onReject: refuse('maxDirectives', config.maxDirectives) },
    }).protect().validationRules;
  }

  /** The token limit, on the source text: null when within, else the refusal. */
  checkSource(source: string): GraphQLError | null {
    const lexer = new Lexer(new Source(source));
    let tokens = 0;
    try {
      while (lexer.advance().kind !== TokenKind.EOF) {
        if (++tokens > this.config.maxTokens) return operationLimitError('maxTokens', this.config.maxTokens);
      }
    } catch {
      return null; // a syntax error: the parser reports it, with its location
    }
    return null;
  }

  /** Depth, aliases, cost and directives, on the parsed document: null when within, else the refusal. */
  checkDocument(schema: GraphQLSchema, document: DocumentNode): GraphQLError | null {
    try {
      validate(schema, document, this.rules);
      return null;
    } catch (err) {
      if (isOperationLimitError(err)) return err;
      throw err;
    }
  }
}
