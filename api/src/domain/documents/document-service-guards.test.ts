import { describe, expect, it } from 'vitest';
import { DocumentTooLargeError, VersionConflictError } from '../cascade/errors';
import { DomainError } from '../errors';
import { createDocumentFixture, type DocumentFixture } from '../testing';
import { LayerReadOnlyError } from './errors';

const SKILL = '_vance/skills/review/SKILL.md';

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

function expectNothingWritten(fx: DocumentFixture): void {
  expect(fx.documentStore.calls).toMatchObject({ put: 0, delete: 0 });
  expect(fx.events).toEqual([]);
}

describe('DocumentService limits and concurrency', () => {
  it('refuses content over the byte limit (counting UTF-8 bytes) and writes nothing', async () => {
    const fx = await createDocumentFixture({ maxDocumentBytes: 10 });
    const { documents, users: { alice } } = fx;
    await documents.put(alice, 'VANCE', null, SKILL, '0123456789');
    fx.documentStore.resetCalls();
    fx.events.length = 0;
    const error = await failure(documents.put(alice, 'VANCE', null, SKILL, 'ääääää')); // 6 characters, 12 bytes
    expect(error).toBeInstanceOf(DocumentTooLargeError);
    expect(error).toMatchObject({ code: 'DOCUMENT_TOO_LARGE', category: 'BAD_INPUT', bytes: 12, limit: 10 });
    expect(error.diagnostics[0]).toMatchObject({ field: 'content', path: SKILL });
    expectNothingWritten(fx);
    expect(await documents.history(alice, 'VANCE', null, SKILL)).toHaveLength(1);
    expect((await documents.get(alice, 'VANCE', null, SKILL))?.content).toBe('0123456789');
  });

  it('refuses a stale expectedVersion with VERSION_CONFLICT and writes nothing', async () => {
    const fx = await createDocumentFixture();
    const { documents, users: { alice } } = fx;
    await documents.put(alice, 'VANCE', null, SKILL, 'one');
    await documents.put(alice, 'VANCE', null, SKILL, 'two');
    fx.events.length = 0;
    const error = await failure(documents.put(alice, 'VANCE', null, SKILL, 'stale', { expectedVersion: 1 }));
    expect(error).toBeInstanceOf(VersionConflictError);
    expect(error).toMatchObject({ code: 'VERSION_CONFLICT', category: 'CONFLICT', expected: 1, actual: 2 });
    expect(fx.events).toEqual([]);
    expect(await documents.history(alice, 'VANCE', null, SKILL)).toHaveLength(2);
    expect((await documents.get(alice, 'VANCE', null, SKILL))?.content).toBe('two');
  });

  it('refuses to create over a live document with expectedVersion 0', async () => {
    const { documents, users: { alice } } = await createDocumentFixture();
    await documents.put(alice, 'VANCE', null, SKILL, 'one', { expectedVersion: 0 });
    expect((await failure(documents.put(alice, 'VANCE', null, SKILL, 'two', { expectedVersion: 0 }))).category).toBe('CONFLICT');
  });

  it('refuses a stale expectedVersion on delete and keeps the document', async () => {
    const { documents, users: { alice } } = await createDocumentFixture();
    await documents.put(alice, 'VANCE', null, SKILL, 'one');
    expect((await failure(documents.delete(alice, 'VANCE', null, SKILL, 5))).code).toBe('VERSION_CONFLICT');
    expect(await documents.get(alice, 'VANCE', null, SKILL)).not.toBeNull();
  });

  it.each([-1, 1.5, Number.NaN])('rejects expectedVersion %s as BAD_INPUT', async (version) => {
    const fx = await createDocumentFixture();
    const error = await failure(fx.documents.put(fx.users.alice, 'VANCE', null, SKILL, 'x', { expectedVersion: version }));
    expect(error).toMatchObject({ code: 'INVALID_VERSION', category: 'BAD_INPUT' });
    expectNothingWritten(fx);
  });

  it('rejects an invalid path as BAD_INPUT before writing', async () => {
    const fx = await createDocumentFixture();
    const error = await failure(fx.documents.put(fx.users.alice, 'VANCE', null, '../../etc/passwd', 'x'));
    expect(error).toMatchObject({ code: 'INVALID_DOCUMENT_PATH', category: 'BAD_INPUT' });
    expectNothingWritten(fx);
  });
});

describe('DocumentService access control (seed 000 §14)', () => {
  it('refuses any write to RESOURCE as FORBIDDEN, even for the system admin', async () => {
    const fx = await createDocumentFixture({ resources: [{ path: SKILL, content: 'bundled' }] });
    const put = await failure(fx.documents.put(fx.users.admin, 'RESOURCE', null, SKILL, 'x'));
    expect(put).toBeInstanceOf(LayerReadOnlyError);
    expect(put.category).toBe('FORBIDDEN');
    expect((await failure(fx.documents.delete(fx.users.admin, 'RESOURCE', null, SKILL))).category).toBe('FORBIDDEN');
    expectNothingWritten(fx);
  });

  it('lets a member read VANCE but refuses its write as FORBIDDEN', async () => {
    const fx = await createDocumentFixture();
    await fx.documents.put(fx.users.alice, 'VANCE', null, SKILL, 'tenant');
    fx.documentStore.resetCalls();
    fx.events.length = 0;
    expect((await fx.documents.get(fx.users.bob, 'VANCE', null, SKILL))?.content).toBe('tenant');
    expect((await failure(fx.documents.put(fx.users.bob, 'VANCE', null, SKILL, 'x'))).category).toBe('FORBIDDEN');
    expect((await failure(fx.documents.delete(fx.users.bob, 'VANCE', null, SKILL))).category).toBe('FORBIDDEN');
    expectNothingWritten(fx);
  });

  it('lets a project member read but not write the project', async () => {
    const fx = await createDocumentFixture();
    await fx.documents.put(fx.users.dana, 'PROJECT', 'alpha', SKILL, 'project');
    fx.documentStore.resetCalls();
    fx.events.length = 0;
    expect((await fx.documents.get(fx.users.bob, 'PROJECT', 'alpha', SKILL))?.content).toBe('project');
    expect((await failure(fx.documents.put(fx.users.bob, 'PROJECT', 'alpha', SKILL, 'x'))).category).toBe('FORBIDDEN');
    expectNothingWritten(fx);
  });

  it('lets project admins, tenant admins and system admins write a project', async () => {
    const { documents, users: { dana, alice, admin } } = await createDocumentFixture();
    await documents.put(dana, 'PROJECT', 'alpha', SKILL, 'dana');
    await documents.put(alice, 'PROJECT', 'alpha', SKILL, 'alice');
    await documents.put(admin, 'PROJECT', 'beta', SKILL, 'admin');
    expect((await documents.get(alice, 'PROJECT', 'alpha', SKILL))?.version).toBe(2);
  });

  it('answers NOT_FOUND (not FORBIDDEN) to a non-member for every operation on a project', async () => {
    const fx = await createDocumentFixture();
    const { documents, users: { carol } } = fx;
    const attempts = [
      () => documents.get(carol, 'PROJECT', 'alpha', SKILL),
      () => documents.list(carol, 'PROJECT', 'alpha'),
      () => documents.history(carol, 'PROJECT', 'alpha', SKILL),
      () => documents.effective(carol, 'alpha', SKILL),
      () => documents.effectiveList(carol, 'alpha'),
      () => documents.put(carol, 'PROJECT', 'alpha', SKILL, 'x'),
      () => documents.delete(carol, 'PROJECT', 'alpha', SKILL),
    ];
    for (const attempt of attempts) expect((await failure(attempt())).category).toBe('NOT_FOUND');
    expectNothingWritten(fx);
  });

  it("answers NOT_FOUND for another tenant's project, even to admins", async () => {
    const fx = await createDocumentFixture();
    const { documents, users: { alice, admin, eve } } = fx;
    await documents.put(eve, 'PROJECT', 'secret', SKILL, 'globex');
    fx.documentStore.resetCalls();
    fx.events.length = 0;
    for (const caller of [alice, admin]) {
      expect((await failure(documents.get(caller, 'PROJECT', 'secret', SKILL))).category).toBe('NOT_FOUND');
      expect((await failure(documents.effective(caller, 'secret', SKILL))).category).toBe('NOT_FOUND');
      expect((await failure(documents.put(caller, 'PROJECT', 'secret', SKILL, 'x'))).category).toBe('NOT_FOUND');
    }
    expectNothingWritten(fx);
  });

  it("keeps tenants' VANCE layers apart", async () => {
    const { documents, users: { alice, eve } } = await createDocumentFixture();
    await documents.put(eve, 'VANCE', null, SKILL, 'globex');
    expect(await documents.get(alice, 'VANCE', null, SKILL)).toBeNull();
    expect(await documents.effective(alice, null, SKILL)).toBeNull();
  });

  it("answers NOT_FOUND for another user's _user_ project, even to a tenant admin", async () => {
    const { documents, users: { alice, bob } } = await createDocumentFixture();
    await documents.put(bob, 'USER', null, SKILL, 'bob');
    expect((await failure(documents.get(alice, 'PROJECT', '_user_bob', SKILL))).category).toBe('NOT_FOUND');
    expect((await failure(documents.effective(alice, '_user_bob', SKILL))).category).toBe('NOT_FOUND');
  });

  it.each(['_tenant', '_user_alice'])('rejects the PROJECT layer addressed with system project %s as BAD_INPUT', async (project) => {
    const fx = await createDocumentFixture();
    const error = await failure(fx.documents.put(fx.users.alice, 'PROJECT', project, SKILL, 'x'));
    expect(error).toMatchObject({ code: 'SYSTEM_PROJECT_LAYER', category: 'BAD_INPUT' });
    expect(error.diagnostics[0]?.field).toBe('project');
    expect((await failure(fx.documents.get(fx.users.alice, 'PROJECT', project, SKILL))).category).toBe('BAD_INPUT');
    expectNothingWritten(fx);
  });

  it('answers NOT_FOUND for the PROJECT layer without a project name', async () => {
    const { documents, users: { alice } } = await createDocumentFixture();
    expect((await failure(documents.get(alice, 'PROJECT', null, SKILL))).category).toBe('NOT_FOUND');
  });
});
