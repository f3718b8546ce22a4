import type { Logger } from 'pino';
import { hashApiToken } from '../domain/identity/api-token';
import type { Principal } from '../domain/identity/principal';
import type { Services } from '../services';

/** Per operation: the services, and the caller, authenticated on first use. */
export interface GraphQLContext {
  readonly services: Services;
  readonly logger: Logger;
  /** The hash of the bearer token (null without one): the key of per-token budgets. */
  readonly tokenKey: string | null;
  /** Throws UnauthenticatedError when the request carried no valid token. */
  principal(): Promise<Principal>;
  /** The caller when already known without a wait (a cached token), else undefined: use `principal`. */
  principalIfCached(): Principal | undefined;
}

export function createContext(services: Services, logger: Logger, authorization: string | null | undefined): GraphQLContext {
  let principal: Promise<Principal> | undefined;
  const token = bearerToken(authorization);
  // Hashed once per operation: the budgets' key and the principal cache's key are the same hash.
  const tokenKey = token === null ? null : hashApiToken(token);
  return {
    services,
    logger,
    tokenKey,
    principal: () => (principal ??= services.identity.authenticateTokenHash(tokenKey)),
    principalIfCached: () => services.identity.cachedPrincipal(tokenKey),
  };
}

/** False when the caller has no valid token (who may see field suggestions, for one). */
export function isAuthenticated(context: GraphQLContext): Promise<boolean> {
  return context.principal().then(() => true, () => false);
}

/** `Bearer <token>` (scheme case-insensitive); a bare token is accepted for WebSocket clients. */
export function bearerToken(authorization: string | null | undefined): string | null {
  if (typeof authorization !== 'string') return null;
  const value = authorization.trim();
  const match = /^bearer\s+(\S+)$/i.exec(value);
  if (match) return match[1] ?? null;
  return /\s/.test(value) || value === '' ? null : value;
}
