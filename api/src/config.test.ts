import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('limit settings', () => {
  it('default to limits a dashboard session never meets, introspection for authenticated callers, no dev errors', () => {
    const config = loadConfig({});
    expect(config.operationLimits).toEqual({ maxTokens: 3000, maxDepth: 12, maxAliases: 50, maxCost: 1000, maxDirectives: 50 });
    expect(config.budgets).toEqual({
      mutationsPerToken: 600, mutationsPerTenant: 3000, turnsPerToken: 120, turnsPerTenant: 600,
      subscriptionsPerConnection: 100, subscriptionsPerToken: 500,
    });
    expect(config.introspection).toBe('authenticated');
    expect(config.devErrors).toBe(false);
    expect(config.maxRequestBytes).toBe(8 * 1024 * 1024);
    expect(Object.isFrozen(config.operationLimits) && Object.isFrozen(config.budgets)).toBe(true);
  });

  it('reads each from its VANCE_ variable', () => {
    const config = loadConfig({
      VANCE_MAX_TOKENS: '500', VANCE_MAX_ALIASES: '0', VANCE_RATE_TURNS_PER_TENANT: '7', VANCE_MAX_SUBSCRIPTIONS_PER_TOKEN: '9',
      VANCE_INTROSPECTION: 'OFF', VANCE_DEV_ERRORS: 'true', VANCE_MAX_REQUEST_BYTES: '2097152',
    });
    expect(config.operationLimits.maxTokens).toBe(500);
    expect(config.operationLimits.maxAliases).toBe(0);
    expect(config.budgets.turnsPerTenant).toBe(7);
    expect(config.budgets.subscriptionsPerToken).toBe(9);
    expect(config.introspection).toBe('off');
    expect(config.devErrors).toBe(true);
    expect(config.maxRequestBytes).toBe(2097152);
  });

  it('refuses values it cannot honour, naming the variable', () => {
    expect(() => loadConfig({ VANCE_INTROSPECTION: 'sometimes' })).toThrow(/VANCE_INTROSPECTION/);
    expect(() => loadConfig({ VANCE_DEV_ERRORS: 'yes please' })).toThrow(/VANCE_DEV_ERRORS/);
    expect(() => loadConfig({ VANCE_RATE_MUTATIONS_PER_TOKEN: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ VANCE_MAX_REQUEST_BYTES: '4096', VANCE_MAX_DOCUMENT_BYTES: '8192' })).toThrow(/at least VANCE_MAX_DOCUMENT_BYTES/);
    expect(() => loadConfig({ VANCE_TURN_SLOTS: '4', VANCE_TURN_SLOTS_PER_TENANT: '5' })).toThrow(/VANCE_TURN_SLOTS_PER_TENANT/);
    expect(() => loadConfig({ VANCE_TURN_SLOTS: '0' })).toThrow(/VANCE_TURN_SLOTS/);
  });

  it('gives one tenant half of the turn slots unless told otherwise (issue 14)', () => {
    expect(loadConfig({}).turnSlots).toEqual({ total: 64, perTenant: 32 });
    expect(loadConfig({ VANCE_TURN_SLOTS: '1' }).turnSlots).toEqual({ total: 1, perTenant: 1 });
    expect(loadConfig({ VANCE_TURN_SLOTS: '10', VANCE_TURN_SLOTS_PER_TENANT: '10' }).turnSlots).toEqual({ total: 10, perTenant: 10 });
  });
});
