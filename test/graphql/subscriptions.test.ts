import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases';
import type { Database } from '../../api/src/persistence';
import { DOCUMENT_CHANGED_TOPIC } from '../../api/src/domain/events/document-changed';
import { collect, startTestVance, type TestVance } from './harness';

const CHANGED = `subscription C($project: String) { documentChanged(project: $project) { layer project path version change author } }`;

describe.each(testDatabases())('GraphQL over WebSocket ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let member: string;
  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db);
    await t.gql(`mutation { createProject(name: "orbit") { id } }`);
    member = (await t.gql(`mutation { createUser(login: "wes") { token } }`)).data!.createUser.token;
    await t.gql(`mutation { addProjectMember(project: "orbit", login: "wes") { role } }`);
  });
  afterAll(async () => {
    await t?.close();
    await db?.close();
  });

  it('answers queries over graphql-ws with connectionParams.authorization', async () => {
    const sub = collect<{ me: { login: string } }>(t.ws(member), '{ me { login } }');
    expect((await sub.next()).data).toEqual({ me: { login: 'wes' } });
  });

  it('streams documentChanged for the project, the tenant layer and my own layer, not for others', async () => {
    // Load: wait until the subscription is registered on the bus, not 200 ms that a busy machine can outlast.
    const sub = await t.bus.listening(DOCUMENT_CHANGED_TOPIC, () => collect<{ documentChanged: unknown }>(t.ws(member), CHANGED, { project: 'orbit' }));
    await t.gql(`mutation { putDocument(layer: PROJECT, project: "orbit", path: "a.md", content: "1") { version } }`);
    await t.gql(`mutation { putDocument(layer: USER, path: "admin-only.md", content: "x") { version } }`); // admin's USER layer
    await t.gql(`mutation { putDocument(layer: VANCE, path: "t.md", content: "1") { version } }`);
    await t.gql(`mutation { putDocument(layer: USER, path: "mine.md", content: "1") { version } }`, {}, member);
    await t.gql(`mutation { deleteDocument(layer: PROJECT, project: "orbit", path: "a.md") }`);
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await sub.next()).data?.documentChanged);
    expect(seen).toEqual([
      { layer: 'PROJECT', project: 'orbit', path: 'a.md', version: 1, change: 'PUT', author: 'admin' },
      { layer: 'VANCE', project: '_tenant', path: 't.md', version: 1, change: 'PUT', author: 'admin' },
      { layer: 'USER', project: '_user_wes', path: 'mine.md', version: 1, change: 'PUT', author: 'wes' },
      { layer: 'PROJECT', project: 'orbit', path: 'a.md', version: 2, change: 'DELETE', author: 'admin' },
    ]);
  });

  it('maps domain errors the same way on WebSocket: an invisible project is NOT_FOUND', async () => {
    const outsider = (await t.gql(`mutation { createUser(login: "xena") { token } }`)).data!.createUser.token;
    const sub = collect(t.ws(outsider), CHANGED, { project: 'orbit' });
    await sub.done;
    const errors = (sub.error ?? sub.events[0]?.errors) as { extensions?: { code?: string } }[];
    expect(errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('answers UNAUTHENTICATED per operation without a token and refuses a bad token at connect (4403)', async () => {
    const anon = collect(t.ws(null), '{ me { login } }');
    expect((await anon.next()).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const bad = collect(t.ws('vance_wrong'), '{ me { login } }');
    await bad.done;
    expect((bad.error as { code?: number })?.code).toBe(4403);
  });
});
