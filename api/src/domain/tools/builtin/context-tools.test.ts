import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../tool-registry';
import { createBuiltinFixture } from './builtin-fixture';
import { contextTools } from './context-tools';

describe('whoami and current_time', () => {
  it('whoami names the user, tenant, project and process of the call', async () => {
    const fx = await createBuiltinFixture();
    const ctx = await fx.ctx({ name: 'chat', recipeName: 'arthur', engine: 'arthur' });
    const result = await new ToolRegistry(fx.tools).dispatch('whoami', {}, 'ALL', ctx);
    expect(JSON.parse(result.content)).toEqual({
      user: { login: ctx.principal.user.login, role: ctx.principal.user.role }, tenant: ctx.principal.tenant.name, project: 'alpha',
      process: { name: 'chat', recipe: 'arthur', engine: 'arthur' },
    });
  });

  it('current_time reads the clock in UTC', async () => {
    const fx = await createBuiltinFixture();
    const tools = contextTools({ identity: fx.docs.identity, now: () => new Date('2026-12-03T21:30:00.000Z') });
    const result = await new ToolRegistry(tools).dispatch('current_time', {}, 'ALL', await fx.ctx());
    expect(JSON.parse(result.content)).toEqual({ iso: '2026-12-03T21:30:00.000Z', date: '2026-12-03', weekday: 'Thursday', unixMs: Date.parse('2026-12-03T21:30:00.000Z') });
  });
});
