import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import * as apiToken from '../domain/identity/api-token';
import { IdentityService } from '../domain/identity/identity-service';
import { InMemoryIdentityStore } from '../domain/testing';
import type { Services } from '../services';
import { createContext } from './context';

vi.mock('../domain/identity/api-token', async (original) => {
  const actual = await original<typeof apiToken>();
  return { ...actual, hashApiToken: vi.fn(actual.hashApiToken) };
});

const TOKEN = 'vance_context_test_token';

async function services(): Promise<Services> {
  const identity = new IdentityService(new InMemoryIdentityStore());
  await identity.bootstrap(TOKEN);
  return { identity } as unknown as Services;
}

describe('createContext', () => {
  it('hashes the bearer token once per operation: the budgets key and the principal lookup share it', async () => {
    const all = await services(); // the bootstrap hashes the token too
    const hash = vi.mocked(apiToken.hashApiToken);
    hash.mockClear();
    const context = createContext(all, pino({ level: 'silent' }), `Bearer ${TOKEN}`);
    expect((await context.principal()).user.login).toBe('admin');
    expect(hash).toHaveBeenCalledTimes(1);
    expect(context.tokenKey).toBe(hash.mock.results[0]?.value);
  });

  it('answers UNAUTHENTICATED for no token and for an unknown one', async () => {
    const all = await services();
    const logger = pino({ level: 'silent' });
    await expect(createContext(all, logger, undefined).principal()).rejects.toMatchObject({ category: 'UNAUTHENTICATED' });
    await expect(createContext(all, logger, 'Bearer vance_unknown').principal()).rejects.toMatchObject({ category: 'UNAUTHENTICATED' });
  });

  it('knows the caller without a wait only for a token the principal cache holds valid', async () => {
    const all = await services();
    const logger = pino({ level: 'silent' });
    expect(createContext(all, logger, `Bearer ${TOKEN}`).principalIfCached()).toBeUndefined(); // not loaded yet
    const first = createContext(all, logger, `Bearer ${TOKEN}`);
    const me = await first.principal();
    expect(createContext(all, logger, `Bearer ${TOKEN}`).principalIfCached()).toBe(me);
    const unknown = createContext(all, logger, 'Bearer vance_unknown');
    await expect(unknown.principal()).rejects.toMatchObject({ category: 'UNAUTHENTICATED' });
    expect(unknown.principalIfCached()).toBeUndefined(); // a known-invalid token is refused by principal(), never answered here
    expect(createContext(all, logger, undefined).principalIfCached()).toBeUndefined();
  });
});
