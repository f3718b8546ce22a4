import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { codeOf, startTestVance, type TestVance } from './harness';

const GET = `query G($key: String!, $project: String) { setting(key: $key, project: $project) { key value secret hasValue source } }`;
const PUT = `mutation P($key: String!, $value: String, $project: String, $secret: Boolean) {
  putSetting(key: $key, value: $value, project: $project, secret: $secret) { key value secret hasValue source }
}`;

describe.each(testDatabases())('settings over GraphQL ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let member: string;
  let projectAdmin: string;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, { VANCE_DEFAULT_SETTINGS: JSON.stringify({ 'ai.default.provider': 'offline', 'ai.env.apiKey': 'env-secret' }) });
    await t.gql(`mutation { createProject(name: "lab") { id } }`);
    member = (await t.gql(`mutation { createUser(login: "sam") { token } }`)).data!.createUser.token;
    projectAdmin = (await t.gql(`mutation { createUser(login: "pia") { token } }`)).data!.createUser.token;
    await t.gql(`mutation { addProjectMember(project: "lab", login: "sam") { role } }`);
    await t.gql(`mutation { addProjectMember(project: "lab", login: "pia", role: ADMIN) { role } }`);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('cascades project over tenant over the environment defaults', async () => {
    expect((await t.gql(GET, { key: 'ai.default.provider', project: 'lab' }, member)).data?.setting)
      .toMatchObject({ value: 'offline', source: 'ENVIRONMENT' });
    await t.gql(PUT, { key: 'ai.default.provider', value: 'anthropic' });
    expect((await t.gql(GET, { key: 'ai.default.provider', project: 'lab' }, member)).data?.setting)
      .toMatchObject({ value: 'anthropic', source: 'VANCE' });
    await t.gql(PUT, { key: 'ai.default.provider', value: 'openai', project: 'lab' }, projectAdmin);
    expect((await t.gql(GET, { key: 'ai.default.provider', project: 'lab' }, member)).data?.setting)
      .toMatchObject({ value: 'openai', source: 'PROJECT' });
    expect((await t.gql(GET, { key: 'ai.default.provider' }, member)).data?.setting).toMatchObject({ value: 'anthropic' });
    // value: null removes the project value; the tenant one shows again.
    await t.gql(PUT, { key: 'ai.default.provider', value: null, project: 'lab' }, projectAdmin);
    expect((await t.gql(GET, { key: 'ai.default.provider', project: 'lab' }, member)).data?.setting).toMatchObject({ source: 'VANCE' });
  });

  it('never returns secret values, including environment ones', async () => {
    const put = await t.gql(PUT, { key: 'ai.openai.apiKey', value: 'sk-very-secret' });
    expect(put.data?.putSetting).toEqual({ key: 'ai.openai.apiKey', value: null, secret: true, hasValue: true, source: 'VANCE' });
    await t.gql(PUT, { key: 'custom.thing', value: 'hidden', secret: true });
    expect((await t.gql(GET, { key: 'custom.thing' })).data?.setting).toMatchObject({ value: null, secret: true, hasValue: true });
    const all = await t.gql(`{ settings { key value } }`);
    const values = JSON.stringify(all.data);
    expect(values).not.toContain('sk-very-secret');
    expect(values).not.toContain('hidden');
    expect(values).not.toContain('env-secret');
  });

  it('lets only tenant admins write tenant settings and project admins project settings', async () => {
    expect(codeOf(await t.gql(PUT, { key: 'x.y', value: '1' }, member))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(PUT, { key: 'x.y', value: '1', project: 'lab' }, member))).toBe('FORBIDDEN');
    expect(codeOf(await t.gql(PUT, { key: 'bad key!', value: '1' }))).toBe('BAD_USER_INPUT');
    const outsider = (await t.gql(`mutation { createUser(login: "oz") { token } }`)).data!.createUser.token;
    expect(codeOf(await t.gql(GET, { key: 'x', project: 'lab' }, outsider))).toBe('NOT_FOUND');
  });
});
