import { CachedDocumentReader, type DocumentCacheOptions } from '../cascade/document-cache';
import { DocumentCascade } from '../cascade/document-cascade';
import type { ResourceDocument } from '../cascade/document';
import { ResourceLayer } from '../cascade/resource-layer';
import { DocumentService } from '../documents/document-service';
import { LayerTargetResolver } from '../documents/layer-target';
import { DOCUMENT_CHANGED_TOPIC, type DocumentChanged } from '../events/document-changed';
import { InProcessEventBus } from '../events/in-process-event-bus';
import type { Project, ProjectRole, UserRole } from '../identity/identity';
import { IdentityService } from '../identity/identity-service';
import type { Principal } from '../identity/principal';
import { InMemoryDocumentStore } from './in-memory-document-store';
import { InMemoryIdentityStore } from './in-memory-identity-store';

/**
 * The document stack wired the way main.ts wires it, over the in-memory stores, with a small cast:
 *   tenant `default`: admin (SYSTEM_ADMIN), alice (TENANT_ADMIN), dana (MEMBER, ADMIN of `alpha`),
 *                     bob (MEMBER, MEMBER of `alpha`), carol (MEMBER of nothing);
 *                     projects `alpha` and `beta` (created by alice)
 *   tenant `globex`:  eve (TENANT_ADMIN) with project `secret`
 */
export const ADMIN_TOKEN = 'vance_test_admin_token';

export interface DocumentFixtureOptions {
  readonly resources?: readonly ResourceDocument[];
  readonly maxDocumentBytes?: number;
  readonly cache?: DocumentCacheOptions;
}

export interface DocumentFixture {
  readonly documentStore: InMemoryDocumentStore;
  readonly identityStore: InMemoryIdentityStore;
  readonly identity: IdentityService;
  readonly cache: CachedDocumentReader;
  readonly cascade: DocumentCascade;
  readonly bus: InProcessEventBus;
  readonly documents: DocumentService;
  /** Every DocumentChanged published so far, in order. */
  readonly events: DocumentChanged[];
  readonly users: Readonly<Record<'admin' | 'alice' | 'dana' | 'bob' | 'carol' | 'eve', Principal>>;
  readonly projects: Readonly<Record<'alpha' | 'beta' | 'secret', Project>>;
}

export async function createDocumentFixture(options: DocumentFixtureOptions = {}): Promise<DocumentFixture> {
  const documentStore = new InMemoryDocumentStore();
  const identityStore = new InMemoryIdentityStore();
  const identity = new IdentityService(identityStore);
  await identity.bootstrap(ADMIN_TOKEN);
  const admin = await identity.authenticate(ADMIN_TOKEN);

  const user = async (creator: Principal, login: string, role: UserRole, tenant: string | null = null) =>
    identity.authenticate((await identity.createUser(creator, login, tenant, role)).token);
  const alice = await user(admin, 'alice', 'TENANT_ADMIN');
  const dana = await user(alice, 'dana', 'MEMBER');
  const bob = await user(alice, 'bob', 'MEMBER');
  const carol = await user(alice, 'carol', 'MEMBER');
  await identity.createTenant(admin, 'globex');
  const eve = await user(admin, 'eve', 'TENANT_ADMIN', 'globex');

  const alpha = await identity.createProject(alice, 'alpha', 'NORMAL');
  const beta = await identity.createProject(alice, 'beta', 'NORMAL');
  const secret = await identity.createProject(eve, 'secret', 'NORMAL');
  const member = (project: string, login: string, role: ProjectRole) => identity.addProjectMember(alice, project, login, role);
  await member('alpha', 'dana', 'ADMIN');
  await member('alpha', 'bob', 'MEMBER');

  const cache = new CachedDocumentReader(documentStore, options.cache);
  const cascade = new DocumentCascade(cache, new ResourceLayer(options.resources ?? []));
  const bus = new InProcessEventBus();
  const events: DocumentChanged[] = [];
  bus.subscribe<DocumentChanged>(DOCUMENT_CHANGED_TOPIC, (event) => events.push(event));
  documentStore.onChange = (event) => void bus.publish(DOCUMENT_CHANGED_TOPIC, event);
  const documents = new DocumentService({
    targets: new LayerTargetResolver(identity),
    cascade,
    store: documentStore,
    cache,
    maxDocumentBytes: options.maxDocumentBytes ?? 64 * 1024,
  });
  documentStore.resetCalls();

  return {
    documentStore, identityStore, identity, cache, cascade, bus, documents, events,
    users: { admin, alice, dana, bob, carol, eve },
    projects: { alpha, beta, secret },
  };
}
