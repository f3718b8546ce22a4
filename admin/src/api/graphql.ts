/**
 * One POST /graphql round trip with the session token. GraphQL errors become react-admin HttpErrors:
 * `extensions.code` UNAUTHENTICATED → 401, FORBIDDEN → 403, BAD_USER_INPUT → 400 with the
 * validator's diagnostics in `body.diagnostics`, RATE_LIMITED → 429 (a spent budget; the message
 * says when to retry). Every one of them rejects, so the page that asked shows it as an error.
 * Only a 401 on the session's own token ends the session, here: the token is dropped and the
 * layout (RequireSession) logs out. Not through react-admin's checkError: when that rejects,
 * react-admin's data provider proxy resolves the call with empty data instead of rejecting, and the
 * page showed a success toast for a write that never happened (issue 17).
 */
import { HttpError } from 'react-admin';
import { session } from './session';
import type { Diagnostic } from './types';

export interface GraphQLErrorBody {
  code: string | undefined;
  domainCode: string | undefined;
  diagnostics: Diagnostic[];
}

const STATUS: Record<string, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  BAD_USER_INPUT: 400,
  RATE_LIMITED: 429,
};

const refusalListeners = new Set<() => void>();
/** Hears every FORBIDDEN: what the caller may do changed since the page asked (the layout reloads the permissions). */
export function onRefused(listener: () => void): () => void {
  refusalListeners.add(listener);
  return () => refusalListeners.delete(listener);
}

export async function gql<T>(query: string, variables: Record<string, unknown> = {}, token: string | null = session.token()): Promise<T> {
  const res = await fetch(`${import.meta.env.BASE_URL.replace(/admin\/$/, '')}graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  let json: { data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  try {
    json = await res.json();
  } catch {
    throw new HttpError(`The API answered ${res.status}`, res.status, { code: undefined, domainCode: undefined, diagnostics: [] });
  }
  const first = json.errors?.[0];
  if (first) {
    const code = typeof first.extensions?.code === 'string' ? first.extensions.code : undefined;
    const body: GraphQLErrorBody = {
      code,
      domainCode: typeof first.extensions?.domainCode === 'string' ? first.extensions.domainCode : undefined,
      diagnostics: Array.isArray(first.extensions?.diagnostics) ? (first.extensions.diagnostics as Diagnostic[]) : [],
    };
    const status = (code && STATUS[code]) || (res.status >= 400 ? res.status : 500);
    if (status === 401 && token === session.token()) session.setToken(null);
    if (status === 403) for (const listener of refusalListeners) listener();
    throw new HttpError(first.message, status, body);
  }
  if (!res.ok && res.status !== 200) throw new HttpError(`The API answered ${res.status}`, res.status, { code: undefined, domainCode: undefined, diagnostics: [] });
  return json.data as T;
}

export function diagnosticsOf(error: unknown): Diagnostic[] {
  const body = (error as { body?: Partial<GraphQLErrorBody> } | null)?.body;
  return Array.isArray(body?.diagnostics) ? body.diagnostics : [];
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
