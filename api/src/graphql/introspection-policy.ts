/**
 * Who may introspect the schema (issue 13, `VANCE_INTROSPECTION`): `authenticated` (the default —
 * codegen-based clients and tools with a token keep it; the dashboard does not use it), `all`, or
 * `off`. Checked on every operation, after validation: Apollo caches validated documents, so a
 * validation rule would see an introspection query only the first time, whoever sent it.
 */
import { visit, BREAK, type DocumentNode } from 'graphql';
import type { IntrospectionPolicy } from '../config';
import { ForbiddenError, UnauthenticatedError } from '../domain/errors';
import type { GraphQLContext } from './context';

export async function checkIntrospection(policy: IntrospectionPolicy, document: DocumentNode, context: GraphQLContext): Promise<void> {
  if (policy === 'all' || !usesIntrospection(document)) return;
  if (policy === 'off') throw new ForbiddenError('Introspection is switched off on this server');
  await context.principal().catch(() => {
    throw new UnauthenticatedError('Introspection needs a valid API token');
  });
}

// Apollo hands the same DocumentNode to every request with the same text.
const answered = new WeakMap<DocumentNode, boolean>();

/** `__schema` or `__type` anywhere in the document (`__typename` is not introspection). */
export function usesIntrospection(document: DocumentNode): boolean {
  const known = answered.get(document);
  if (known !== undefined) return known;
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return undefined;
      found = true;
      return BREAK;
    },
  });
  answered.set(document, found);
  return found;
}
