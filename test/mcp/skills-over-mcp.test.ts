import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod/v4';
import type { Database } from '../../api/src/persistence';
import { ADMIN_TOKEN, startTestVance, type TestVance } from '../graphql/harness';
import { testDatabases } from '../support/databases';
import { connectSkills, mcpUrl, sha256, type SkillEntry, type SkillsClient } from './mcp-client';

/**
 * Issue 19 part 1: Vance's skills over MCP (the Skills extension, SEP-2640), spoken to by the MCP
 * SDK's own client. Two users in two projects of one tenant, and a second tenant: the cascade and
 * its shadowing, the model surface only (seed 002), the USER layer private to its owner, another
 * tenant's project NOT_FOUND like a missing one, bad tokens refused, and digests that follow writes
 * with a list-changed notification. Pages are 3 skills long, so every listing walks cursors.
 */
// Vance requires `version` beside `title` (seed 000 §2); the ones without either are Claude-style.
const skillMd = (front: string[], body: string) => ['---', ...front, ...(front.some((f) => f.startsWith('version:')) ? [] : ['version: "1.0.0"']), '---', body, ''].join('\n');
const PRIVATE = 'zq-private';

const TENANT_DOCS: Record<string, string> = {
  '_vance/skills/shared/SKILL.md': skillMd(['title: Shared', 'description: The tenant copy', 'version: "1.0.0"'], 'Tenant body.'),
  '_vance/skills/tenant-only/SKILL.md': skillMd(['title: Tenant only', 'description: Only the tenant has it', 'tags: [ops, "team"]'], 'Tenant only body.'),
  '_vance/skills/no-model/SKILL.md': skillMd(['title: People only', 'description: Not for the model', 'disable-model-invocation: true'], 'Hidden from the model.'),
};
const ALPHA_DOCS: Record<string, string> = {
  '_vance/skills/shared/SKILL.md': skillMd([
    'title: Shared (alpha)', 'description: The alpha copy', 'version: "2.0.0"', 'license: MIT', 'allowed-tools: [manual_read, skill_reference_doc]',
    'metadata:', '  owner: alpha-team', 'referenceDocs:', '  - title: Guide', '    file: references/guide.md', '    loadMode: on_demand',
  ], 'Alpha body; read references/guide.md.'),
  '_vance/skills/shared/references/guide.md': '# Guide\nStep one: ünïcode counts in bytes.\n',
  '_vance/skills/shared/scripts/run.js': 'vance.log("run");\n',
};
const BETA_DOCS: Record<string, string> = {
  '_vance/skills/beta-only/SKILL.md': skillMd(['title: Beta', 'description: Only beta has it'], 'Beta body.'),
};
const ANN_DOCS: Record<string, string> = {
  '_vance/skills/zq-private-notes/SKILL.md': skillMd(['title: Notes', `description: ${PRIVATE} notes`], `${PRIVATE} body.`),
};

const byName = (skills: SkillEntry[]) => new Map(skills.map((skill) => [skill.frontmatter.name, skill]));

describe.each(testDatabases())('skills over MCP ($name)', (driver) => {
  let db: Database;
  let t: TestVance;
  let ann: string;
  let bob: string;
  let otherAdmin: string;
  const open: SkillsClient[] = [];
  const connect = async (token: string | null, project?: string) => {
    const client = await connectSkills(mcpUrl(t.url, project), token);
    open.push(client);
    return client;
  };
  const put = async (layer: string, path: string, content: string, token: string, project?: string) => {
    const result = await t.gql(`mutation P($l: Layer!, $p: String!, $c: String!, $pr: String) { putDocument(layer: $l, path: $p, content: $c, project: $pr) { version } }`, { l: layer, p: path, c: content, pr: project ?? null }, token);
    expect(result.errors).toBeUndefined();
  };
  const modelSkillsOverGraphQL = async (project: string, token: string) =>
    ((await t.gql(`query S($p: String) { skills(project: $p, surface: MODEL) { name } }`, { p: project }, token)).data!.skills as { name: string }[]).map((s) => s.name);

  beforeAll(async () => {
    db = await driver.open();
    t = await startTestVance(db, { VANCE_MCP_PAGE_SIZE: '3' });
    await t.gql(`mutation { createProject(name: "alpha") { id } }`);
    await t.gql(`mutation { createProject(name: "beta") { id } }`);
    ann = (await t.gql(`mutation { createUser(login: "ann") { token } }`)).data!.createUser.token;
    bob = (await t.gql(`mutation { createUser(login: "bob") { token } }`)).data!.createUser.token;
    for (const [project, login] of [['alpha', 'ann'], ['alpha', 'bob'], ['beta', 'bob']]) {
      expect((await t.gql(`mutation M($p: String!, $l: String!) { addProjectMember(project: $p, login: $l) { role } }`, { p: project, l: login })).errors).toBeUndefined();
    }
    await t.gql(`mutation { createTenant(name: "globex") { id } }`);
    otherAdmin = (await t.gql(`mutation { createUser(login: "gadmin", tenant: "globex", role: TENANT_ADMIN) { token } }`)).data!.createUser.token;
    expect((await t.gql(`mutation { createProject(name: "secret") { id } }`, {}, otherAdmin)).errors).toBeUndefined();
    for (const [path, content] of Object.entries(TENANT_DOCS)) await put('VANCE', path, content, ADMIN_TOKEN);
    for (const [path, content] of Object.entries(ALPHA_DOCS)) await put('PROJECT', path, content, ADMIN_TOKEN, 'alpha');
    for (const [path, content] of Object.entries(BETA_DOCS)) await put('PROJECT', path, content, ADMIN_TOKEN, 'beta');
    for (const [path, content] of Object.entries(ANN_DOCS)) await put('USER', path, content, ann);
  }, 120_000);
  afterAll(async () => {
    // Vance first, with the clients' sessions and notification streams still open: its close must not wait on them.
    await t?.close();
    await Promise.all(open.map((client) => client.close().catch(() => undefined)));
    await db?.close();
  });

  it('declares the skills extension and the resources capability', async () => {
    const client = await connect(ann, 'alpha');
    const capabilities = client.client.getServerCapabilities();
    expect(capabilities?.extensions).toHaveProperty(['io.modelcontextprotocol/skills']);
    expect(capabilities?.resources).toEqual({ listChanged: true });
  });

  it("lists the caller's effective model skills, paged, the same set as GraphQL's MODEL surface", async () => {
    const client = await connect(ann, 'alpha');
    const { skills, pages } = await client.listSkills();
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page).toMatchObject({ resultType: 'complete', ttlMs: expect.any(Number), cacheScope: 'private' });
    expect(skills.map((s) => s.frontmatter.name)).toEqual(await modelSkillsOverGraphQL('alpha', ann));
    const names = byName(skills);
    expect([...names.keys()]).toEqual(expect.arrayContaining(['shared', 'tenant-only', 'zq-private-notes']));
    // Seed 002: not model-invocable, not served; beta's skill is not alpha's.
    expect(names.has('no-model')).toBe(false);
    expect(names.has('beta-only')).toBe(false);
  });

  it('serves the project copy that shadows the tenant one, with every file, digest and size as read', async () => {
    const client = await connect(ann, 'alpha');
    const shared = byName((await client.listSkills()).skills).get('shared')!;
    expect(shared.uri).toBe('skill://shared/SKILL.md');
    expect(shared._meta).toMatchObject({ 'vance/source': 'PROJECT', 'vance/shadows': ['VANCE'], 'vance/digest': expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(shared.frontmatter).toEqual({
      name: 'shared',
      description: 'The alpha copy',
      license: 'MIT',
      'allowed-tools': 'manual_read skill_reference_doc',
      metadata: {
        owner: 'alpha-team',
        version: '2.0.0',
        'vance.title': 'Shared (alpha)',
        'vance.referenceDocs': JSON.stringify([{ title: 'Guide', file: 'references/guide.md', loadMode: 'on_demand' }]),
      },
    });
    expect(shared.resources.map((r) => r.uri)).toEqual(['skill://shared/SKILL.md', 'skill://shared/references/guide.md', 'skill://shared/scripts/run.js']);
    for (const resource of shared.resources) {
      const content = await client.read(resource.uri);
      expect(sha256(content.text)).toBe(resource.digest);
      expect(Buffer.byteLength(content.text, 'utf8')).toBe(resource.size);
    }
    const md = (await client.read(shared.uri)).text;
    expect(md.endsWith('Alpha body; read references/guide.md.\n')).toBe(true);
    // The SEP's host-side check: the served SKILL.md's frontmatter equals the entry's.
    expect(parse(/^---\n([\s\S]*?)---\n/.exec(md)![1]!)).toEqual(shared.frontmatter);
    expect((await client.getSkill(shared.uri))).toMatchObject({ resultType: 'complete', skill: shared, cacheScope: 'private' });
  });

  it("gives another user in another project the tenant's copy and none of ann's USER layer", async () => {
    const client = await connect(bob, 'beta');
    const { skills } = await client.listSkills();
    expect(skills.map((s) => s.frontmatter.name)).toEqual(await modelSkillsOverGraphQL('beta', bob));
    const names = byName(skills);
    expect(names.get('shared')).toMatchObject({ frontmatter: { description: 'The tenant copy', metadata: { version: '1.0.0' } }, _meta: { 'vance/source': 'VANCE', 'vance/shadows': [] } });
    expect(names.get('tenant-only')!.frontmatter.metadata).toEqual({ version: '1.0.0', 'vance.title': 'Tenant only', 'vance.tags': '["ops","team"]' });
    expect(names.has('beta-only')).toBe(true);
    expect(JSON.stringify(skills)).not.toContain(PRIVATE);
    // A private skill by its URI is exactly as unknown as a missing one (-32602), in both projects.
    const bobInAlpha = await connect(bob, 'alpha');
    for (const c of [client, bobInAlpha]) {
      for (const uri of ['skill://zq-private-notes/SKILL.md', 'skill://no-such-skill/SKILL.md']) {
        await expect(c.getSkill(uri)).rejects.toMatchObject({ code: -32602, message: expect.stringContaining(`No skill is served at ${uri}`) });
        await expect(c.read(uri)).rejects.toMatchObject({ code: -32602 });
      }
    }
  });

  it('refuses a cursor it did not make with -32602', async () => {
    const client = await connect(ann, 'alpha');
    for (const cursor of ['', 'not base64 !', Buffer.from('x').toString('base64url') + '=']) {
      await expect(client.client.request({ method: 'skills/list', params: { cursor } } as never, z.looseObject({}))).rejects.toMatchObject({ code: -32602 });
    }
  });

  it('neither gets nor reads a skill that is not model-invocable', async () => {
    const client = await connect(ann, 'alpha');
    await expect(client.getSkill('skill://no-model/SKILL.md')).rejects.toMatchObject({ code: -32602 });
    await expect(client.read('skill://no-model/SKILL.md')).rejects.toMatchObject({ code: -32602 });
    await expect(client.read('skill://shared/references/missing.md')).rejects.toMatchObject({ code: -32602 });
  });

  it("refuses another tenant's project exactly like a missing one: NOT_FOUND", async () => {
    const refusal = async (token: string, project: string) => {
      const error = await connect(token, project).then(() => null, (err: unknown) => err as { code?: number; message: string });
      expect(error).not.toBeNull();
      return error!;
    };
    const foreign = await refusal(ann, 'secret');
    const missing = await refusal(ann, 'no-such-project');
    for (const error of [foreign, missing]) {
      expect(error.code).toBe(404);
      expect(error.message).toContain('NOT_FOUND');
    }
    expect(foreign.message.replace('secret', 'X')).toBe(missing.message.replace('no-such-project', 'X'));
    // And the other way round: the other tenant's admin cannot reach alpha.
    expect((await refusal(otherAdmin, 'alpha')).message).toContain('NOT_FOUND');
    // Its own project works, and shows none of this tenant's skills.
    const own = await connect(otherAdmin, 'secret');
    const names = (await own.listSkills()).skills.map((s) => s.frontmatter.name);
    expect(names).not.toContain('shared');
    expect(names).not.toContain('tenant-only');
  });

  it('refuses a missing or bad token with 401, before any session', async () => {
    for (const token of [null, 'vance_not-a-token', `${ann}x`]) {
      await expect(connect(token, 'alpha')).rejects.toMatchObject({ code: 401 });
    }
    const res = await fetch(mcpUrl(t.url, 'alpha'), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers a body that is not JSON, and a request without a session that is no initialize, with JSON-RPC errors', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${ann}` };
    const notJson = await fetch(mcpUrl(t.url, 'alpha'), { method: 'POST', headers, body: '{"jsonrpc":' });
    expect([notJson.status, ((await notJson.json()) as { error: { code: number } }).error.code]).toEqual([400, -32700]);
    const noSession = await fetch(mcpUrl(t.url, 'alpha'), { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'skills/list', params: {} }) });
    expect(noSession.status).toBe(400);
    expect(await noSession.json()).toMatchObject({ id: 7, error: { code: -32600 } });
  });

  it('does not let a session be used with another token', async () => {
    const client = await connect(ann, 'alpha');
    const sessionId = (client.client.transport as { sessionId?: string } | undefined)?.sessionId;
    expect(sessionId).toBeTruthy();
    const res = await fetch(mcpUrl(t.url, 'alpha'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${bob}`, 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'skills/list', params: {} }),
    });
    expect(res.status).toBe(404);
    expect(JSON.stringify(await res.json())).not.toContain(PRIVATE);
  });

  it('changes the digests after a write in any layer and tells connected clients', async () => {
    const client = await connect(ann, 'alpha');
    const before = byName((await client.listSkills()).skills);
    const changed = client.nextListChanged();
    await put('PROJECT', '_vance/skills/shared/references/guide.md', '# Guide\nStep one, revised.\n', ADMIN_TOKEN, 'alpha');
    await changed;
    const after = byName((await client.listSkills()).skills);
    const digest = (skill: SkillEntry, uri: string) => skill.resources.find((r) => r.uri === uri)!.digest;
    expect(after.get('shared')!._meta['vance/digest']).not.toBe(before.get('shared')!._meta['vance/digest']);
    expect(digest(after.get('shared')!, 'skill://shared/references/guide.md')).toBe(sha256('# Guide\nStep one, revised.\n'));
    expect(digest(after.get('shared')!, 'skill://shared/SKILL.md')).toBe(digest(before.get('shared')!, 'skill://shared/SKILL.md'));
    expect(after.get('tenant-only')).toEqual(before.get('tenant-only'));

    // The tenant layer, and the caller's own USER layer, count too.
    const tenantChange = client.nextListChanged();
    await put('VANCE', '_vance/skills/tenant-only/SKILL.md', skillMd(['title: Tenant only', 'description: Revised'], 'Tenant only body.'), ADMIN_TOKEN);
    await tenantChange;
    const revised = byName((await client.listSkills()).skills).get('tenant-only')!;
    expect(revised.frontmatter.description).toBe('Revised');
    expect(revised._meta['vance/digest']).not.toBe(before.get('tenant-only')!._meta['vance/digest']);
    const userChange = client.nextListChanged();
    await put('USER', '_vance/skills/zq-private-new/SKILL.md', skillMd(['title: New', 'description: New'], 'New.'), ann);
    await userChange;
    expect(byName((await client.listSkills()).skills).has('zq-private-new')).toBe(true);
  });

  it('takes the project from the X-Vance-Project header when the URL has none', async () => {
    const client = await connectSkills(mcpUrl(t.url), bob, { 'x-vance-project': 'beta' });
    open.push(client);
    expect(byName((await client.listSkills()).skills).has('beta-only')).toBe(true);
  });
});
