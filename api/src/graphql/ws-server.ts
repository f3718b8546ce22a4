/**
 * graphql-ws on the HTTP server's /graphql path (DESIGN §5): the same context factory, error
 * formatter and request guard as HTTP. onSubscribe does for each operation what Apollo's pipeline
 * and `apollo-guard.ts` do on HTTP — operation limits, parse, limits, validation, admit — and then
 * counts a subscription against its caps. Message size is bounded by `ws`'s maxPayload (close 1009).
 */
import { GraphQLError, getOperationAST, type FormattedExecutionResult, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import type { Context, Disposable, SubscribePayload } from 'graphql-ws';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { WebSocketServer } from 'ws';
import { DomainError } from '../domain/errors';
import type { Services } from '../services';
import { bearerToken, createContext } from './context';
import { formatGraphQLError, withoutSuggestions } from './errors';
import type { RequestGuard } from './request-guard';
import type { SubscriptionCaps } from './subscription-caps';
import { SharedSubscriptionResults } from './shared-subscription-results';
import type { NextOutlet } from './direct-next';
import { nextOutlet, servePaced, type WsExtra } from './ws-transport';

export interface WsServerOptions {
  readonly wsServer: WebSocketServer;
  readonly schema: GraphQLSchema;
  readonly services: Services;
  readonly logger: Logger;
  readonly guard: RequestGuard;
  readonly caps: SubscriptionCaps;
  /** false: graphql-ws closes with "Internal server error" instead of the exception's message. */
  readonly devErrors: boolean;
}

type WsContext = Context<Record<string, unknown>>;

export function serveGraphQLWs(options: WsServerOptions): Disposable {
  const { schema, services, logger, guard, caps } = options;
  // A subscription's shared results go straight to its socket (direct-next.ts): its outlet is kept
  // with the arguments prepare() hands graphql-ws, which passes that very object to `subscribe`.
  const outlets = new WeakMap<ExecutionArgs, NextOutlet>();
  const shared = new SharedSubscriptionResults((args) => outlets.get(args));
  // A token is checked at connect (a bad one closes 4403), so a connection without one is anonymous.
  const anonymous = (ctx: WsContext) => authorizationOf(ctx) === null;
  const formatErrors = (ctx: WsContext, errors: readonly GraphQLError[]) =>
    errors.map((e) => {
      const formatted = formatGraphQLError(e.toJSON(), e, logger);
      return anonymous(ctx) ? { ...formatted, message: withoutSuggestions(formatted.message) } : formatted;
    });

  // Parsed and validated documents by text (as Apollo keeps them on HTTP): a client that opens many
  // subscriptions with one query pays for one validation.
  const documents = new LRUCache<string, DocumentNode | readonly GraphQLError[]>({ max: 1_000, maxSize: 8_000_000, sizeCalculation: (_v, key) => key.length });
  function checked(query: string, hideSuggestions: boolean): DocumentNode | readonly GraphQLError[] {
    const key = `${hideSuggestions ? 'a' : 't'}${query}`;
    let known = documents.get(key);
    if (known === undefined) {
      known = checkQuery(query, hideSuggestions);
      documents.set(key, known);
    }
    return known;
  }
  function checkQuery(query: string, hideSuggestions: boolean): DocumentNode | readonly GraphQLError[] {
    const refused = guard.limits.checkSource(query);
    if (refused) return [refused];
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (err) {
      if (err instanceof GraphQLError) return [err];
      throw err;
    }
    const tooMuch = guard.limits.checkDocument(schema, document);
    if (tooMuch) return [tooMuch];
    const invalid = validate(schema, document, specifiedRules, { hideSuggestions });
    return invalid.length > 0 ? invalid : document;
  }

  const refused = new WeakMap<WsContext, number>();
  const refusalAt = new WeakMap<WsContext, readonly GraphQLError[]>();

  async function prepare(ctx: WsContext, id: string, payload: SubscribePayload): Promise<ExecutionArgs | readonly GraphQLError[]> {
    // A connection at its subscription cap takes no new operation until it completes one.
    // A socket being cut off may still have a batch of frames handed over; each gets one shared answer.
    if ((refused.get(ctx) ?? 0) > REFUSALS_BEFORE_CLOSE) return CUT_OFF;
    const full = caps.full(ctx);
    if (full) {
      // A client that keeps asking past its cap is flooding. Past REFUSALS_BEFORE_CLOSE it is cut
      // off, and the frames it already sent are dropped with the socket (ws-message-pacer.ts).
      const refusals = (refused.get(ctx) ?? 0) + 1;
      refused.set(ctx, refusals);
      if (refusals > REFUSALS_BEFORE_CLOSE) socketOf(ctx)?.terminate();
      // One refusal per connection, answered again: an error's stack costs more than the rest of a
      // refusal (a third of the flood's time), and these answers are all the same.
      let answer = refusalAt.get(ctx);
      if (!answer) refusalAt.set(ctx, (answer = [new GraphQLError(full.message, { originalError: full })]));
      return answer;
    }
    const document = checked(payload.query, anonymous(ctx));
    if (!('kind' in document)) return document;
    const operation = getOperationAST(document, payload.operationName);
    if (!operation) return [new GraphQLError('Unable to identify the operation: give a known operationName')];
    const contextValue = createContext(services, logger, authorizationOf(ctx));
    try {
      await guard.admit(document, operation, contextValue);
      if (operation.operation === 'subscription') caps.acquire(ctx, id, contextValue.tokenKey);
    } catch (err) {
      if (err instanceof DomainError) return [new GraphQLError(err.message, { originalError: err })];
      throw err;
    }
    const args: ExecutionArgs = { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
    const socket = (ctx.extra as Partial<WsExtra> | undefined)?.socket;
    if (socket && operation.operation === 'subscription') outlets.set(args, nextOutlet(socket, id));
    return args;
  }

  return servePaced<Record<string, unknown>>(
    {
      schema,
      // A connection with a bad token is refused at init (close 4403); without a token, each
      // operation answers UNAUTHENTICATED like HTTP does.
      onConnect: async (ctx) => {
        const auth = ctx.connectionParams?.authorization;
        if (auth === undefined) return true;
        return services.identity.authenticate(bearerToken(stringOrNull(auth))).then(() => true, () => false);
      },
      onSubscribe: prepare,
      subscribe: shared.subscribe,
      // An event's shared result goes out as the text encoded once (ws-transport.ts, SerializedPayload).
      onNext: (ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: formatErrors(ctx, result.errors) } : (shared.serializedOf(result) as FormattedExecutionResult | null) ?? undefined,
      onError: (ctx, id, _payload, errors) => {
        caps.release(ctx, id);
        return formatErrors(ctx, errors);
      },
      onComplete: (ctx, id) => caps.release(ctx, id),
      onClose: (ctx) => caps.releaseConnection(ctx),
    },
    options.wsServer,
    { messagesPerTurn: MESSAGES_PER_TURN, pauseAt: PAUSE_AT_WAITING, keepAliveMs: KEEP_ALIVE_MS, logger, devErrors: options.devErrors },
  );
}

/** A socket's messages handled per event-loop turn, and the backlog at which it is paused (ws-message-pacer.ts). */
const MESSAGES_PER_TURN = 16;
const PAUSE_AT_WAITING = 256;
/** graphql-ws's own default ping interval. */
const KEEP_ALIVE_MS = 12_000;

/** Subscriptions a connection at its cap may still ask for (each refused) before it is cut off. */
export const REFUSALS_BEFORE_CLOSE = 100;
const CUT_OFF: readonly GraphQLError[] = Object.freeze([new GraphQLError('This connection asked past its subscription cap too often and was closed')]);

function socketOf(ctx: WsContext): { terminate(): void } | undefined {
  return (ctx.extra as { socket?: { terminate(): void } } | undefined)?.socket;
}

function authorizationOf(ctx: WsContext): string | null {
  return stringOrNull(ctx.connectionParams?.authorization);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
