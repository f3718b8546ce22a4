import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../domain/identity/principal';
import { UnauthenticatedError } from '../domain/errors';
import type { GraphQLContext } from './context';
import { checkIntrospection, usesIntrospection } from './introspection-policy';

const caller = (authenticated: boolean) => ({
  principal: () => (authenticated ? Promise.resolve({} as Principal) : Promise.reject(new UnauthenticatedError())),
}) as unknown as GraphQLContext;

const SCHEMA = parse('{ __schema { queryType { name } } }');
const PLAIN = parse('{ me { login __typename } }');

describe('introspection policy', () => {
  it('sees __schema and __type, also in fragments, and not __typename', () => {
    expect(usesIntrospection(SCHEMA)).toBe(true);
    expect(usesIntrospection(parse('query { ...T } fragment T on Query { __type(name: "Query") { name } }'))).toBe(true);
    expect(usesIntrospection(PLAIN)).toBe(false);
  });

  it('authenticated: refuses anonymous callers with UNAUTHENTICATED, serves authenticated ones', async () => {
    await expect(checkIntrospection('authenticated', SCHEMA, caller(false))).rejects.toMatchObject({ category: 'UNAUTHENTICATED' });
    await expect(checkIntrospection('authenticated', SCHEMA, caller(true))).resolves.toBeUndefined();
    await expect(checkIntrospection('authenticated', PLAIN, caller(false))).resolves.toBeUndefined();
  });

  it('off refuses everyone with FORBIDDEN; all serves everyone', async () => {
    await expect(checkIntrospection('off', SCHEMA, caller(true))).rejects.toMatchObject({ category: 'FORBIDDEN' });
    await expect(checkIntrospection('all', SCHEMA, caller(false))).resolves.toBeUndefined();
  });
});
