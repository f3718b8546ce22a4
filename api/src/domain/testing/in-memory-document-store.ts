import type { DocumentRevision, StoredDocument } from '../cascade/document';
import type { DeleteDocumentCommand, DocumentStore, ProjectRef, PutDocumentCommand } from '../cascade/document-store';
import { VersionConflictError } from '../cascade/errors';
import { deferred } from './deferred';
import type { DocumentChanged } from '../events/document-changed';

/**
 * The DocumentStore port in memory, with the port's documented semantics (cascade/document-store.ts):
 * expectedVersion undefined = unconditional, 0 = "nothing live", n = "live at n"; soft delete with a
 * history row; versions keep counting across delete and re-create; listings ordered by path; every
 * call scoped to tenant *and* project. Counts calls so tests can prove a read never reached it, and
 * can hold a read open (it has already read, but not yet answered) to stage races.
 */
export type DocumentStoreMethod = keyof DocumentStore;

export interface HeldCall {
  /** Resolves once the held call has read the store (its answer is fixed from then on). */
  readonly started: Promise<void>;
  /** Lets the held call answer. */
  release(): void;
}

interface Row {
  readonly id: string;
  live: StoredDocument | null;
  lastVersion: number;
  /** Oldest first. */
  readonly revisions: DocumentRevision[];
}

export interface InMemoryDocumentStoreOptions {
  readonly now?: () => Date;
  /** Where a write's DocumentChanged goes (a write with `announce`), like the real store's NOTIFY. */
  readonly onChange?: (event: DocumentChanged) => void;
}

export class InMemoryDocumentStore implements DocumentStore {
  readonly calls: Record<DocumentStoreMethod, number> = { find: 0, listByPrefix: 0, put: 0, delete: 0, history: 0 };
  private readonly rows = new Map<string, Row>();
  private readonly holds = new Map<DocumentStoreMethod, Array<{ started: () => void; gate: Promise<void> }>>();
  private readonly now: () => Date;
  private nextId = 1;
  /** Settable after construction: the fixture wires it to its bus. */
  onChange: ((event: DocumentChanged) => void) | null;

  constructor(options: InMemoryDocumentStoreOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.onChange = options.onChange ?? null;
  }

  private announce(command: PutDocumentCommand | DeleteDocumentCommand, version: number, change: DocumentChanged['change'], at: Date): void {
    if (!command.announce || !this.onChange) return;
    this.onChange({
      tenantId: command.tenantId, projectId: command.projectId, layer: command.announce.layer, path: command.path, version, change,
      author: command.author, at: at.toISOString(),
    });
  }

  /** The next call of `method` reads the store, then waits until `release()` before answering. */
  hold(method: DocumentStoreMethod): HeldCall {
    const started = deferred();
    const gate = deferred();
    const queue = this.holds.get(method) ?? [];
    queue.push({ started: () => started.resolve(), gate: gate.promise });
    this.holds.set(method, queue);
    return { started: started.promise, release: () => gate.resolve() };
  }

  resetCalls(): void {
    for (const method of Object.keys(this.calls) as DocumentStoreMethod[]) this.calls[method] = 0;
  }

  async find(ref: ProjectRef, path: string): Promise<StoredDocument | null> {
    this.calls.find++;
    const answer = this.rows.get(key(ref, path))?.live ?? null;
    return this.answer('find', answer);
  }

  async listByPrefix(ref: ProjectRef, prefix: string): Promise<StoredDocument[]> {
    this.calls.listByPrefix++;
    const docs: StoredDocument[] = [];
    for (const row of this.rows.values()) {
      const doc = row.live;
      if (doc && doc.tenantId === ref.tenantId && doc.projectId === ref.projectId && doc.path.startsWith(prefix)) docs.push(doc);
    }
    docs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return this.answer('listByPrefix', docs);
  }

  async put(command: PutDocumentCommand): Promise<StoredDocument> {
    this.calls.put++;
    const k = key(command, command.path);
    const row = this.rows.get(k) ?? { id: `doc-${this.nextId++}`, live: null, lastVersion: 0, revisions: [] };
    checkVersion(command.path, command.expectedVersion, row.live);
    const at = this.now();
    const version = row.lastVersion + 1;
    const doc: StoredDocument = Object.freeze({
      id: row.id,
      tenantId: command.tenantId,
      projectId: command.projectId,
      path: command.path,
      content: command.content,
      version,
      createdAt: row.live?.createdAt ?? at,
      updatedAt: at,
      updatedBy: command.author,
    });
    row.live = doc;
    row.lastVersion = version;
    row.revisions.push(Object.freeze({ version, content: command.content, deleted: false, createdAt: at, author: command.author }));
    this.rows.set(k, row);
    this.announce(command, version, 'PUT', at);
    return this.answer('put', doc);
  }

  async delete(command: DeleteDocumentCommand): Promise<number | null> {
    this.calls.delete++;
    const row = this.rows.get(key(command, command.path));
    checkVersion(command.path, command.expectedVersion, row?.live ?? null);
    if (!row?.live) return this.answer('delete', null);
    const version = row.lastVersion + 1;
    row.live = null;
    row.lastVersion = version;
    const at = this.now();
    row.revisions.push(Object.freeze({ version, content: null, deleted: true, createdAt: at, author: command.author }));
    this.announce(command, version, 'DELETE', at);
    return this.answer('delete', version);
  }

  async history(ref: ProjectRef, path: string): Promise<DocumentRevision[]> {
    this.calls.history++;
    const revisions = this.rows.get(key(ref, path))?.revisions ?? [];
    return this.answer('history', [...revisions].reverse());
  }

  private async answer<T>(method: DocumentStoreMethod, value: T): Promise<T> {
    const held = this.holds.get(method)?.shift();
    if (held) {
      held.started();
      await held.gate;
    }
    return value;
  }
}

function key(ref: ProjectRef, path: string): string {
  return JSON.stringify([ref.tenantId, ref.projectId, path]);
}

function checkVersion(path: string, expected: number | undefined, live: StoredDocument | null): void {
  if (expected === undefined) return;
  const actual = live?.version ?? null;
  if ((actual ?? 0) !== expected) throw new VersionConflictError(path, expected, actual);
}
