import type { Logger } from 'pino';
import type { Principal } from '../domain/identity/principal';
import type { Services } from '../services';

/** Per operation: the services, and the caller, authenticated on first use. */
export interface GraphQLContext {
  readonly services: Services;
  readonly logger: Logger;
  /** Throws UnauthenticatedError when the request carried no valid token. */
  principal(): Promise<Principal>;
}

export function createContext(services: Services, logger: Logger, authorization: string | null | undefined): GraphQLContext {
  let principal: Promise<Principal> | undefined;
  return {
    services,
    logger,
    principal: () => (principal ??= services.identity.authenticate(bearerToken(authorization))),
  };
}

/** `Bearer <token>` (scheme case-insensitive); a bare token is accepted for WebSocket clients. */
export function bearerToken(authorization: string | null | undefined): string | null {
  if (typeof authorization !== 'string') return null;
  const value = authorization.trim();
  const match = /^bearer\s+(\S+)$/i.exec(value);
  if (match) return match[1] ?? null;
  return /\s/.test(value) || value === '' ? null : value;
}
