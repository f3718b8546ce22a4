import type { DocumentRevision, StoredDocument } from './document';
import type { StoredLayer } from './layer';

/**
 * The change event a write announces (DocumentChanged, with this layer): the store announces it
 * with the write itself — committed together, to every instance (issue 14) — never after it.
 */
export interface DocumentAnnouncement {
  readonly layer: StoredLayer;
}

/** Where a stored document lives. The tenant is repeated in every call for defence in depth. */
export interface ProjectRef {
  readonly tenantId: string;
  readonly projectId: string;
}

export interface PutDocumentCommand extends ProjectRef {
  readonly path: string;
  readonly content: string;
  /**
   * Optimistic concurrency: undefined writes unconditionally; 0 means "must not exist (live)";
   * n > 0 means "the live document must be at version n". A mismatch throws VersionConflictError
   * and writes nothing.
   */
  readonly expectedVersion?: number;
  readonly author: string | null;
  readonly announce?: DocumentAnnouncement;
}

export interface DeleteDocumentCommand extends ProjectRef {
  readonly path: string;
  readonly expectedVersion?: number;
  readonly author: string | null;
  readonly announce?: DocumentAnnouncement;
}

/**
 * The port for the stored layers (USER, PROJECT, VANCE). Writes are atomic in the store
 * (a conditional upsert plus a history row), never read-modify-write in JavaScript.
 */
export interface DocumentStore {
  find(ref: ProjectRef, path: string): Promise<StoredDocument | null>;
  /** Live documents whose path starts with `prefix` ('' = all), ordered by path. */
  listByPrefix(ref: ProjectRef, prefix: string): Promise<StoredDocument[]>;
  put(command: PutDocumentCommand): Promise<StoredDocument>;
  /** Soft delete; returns the deleted revision's version, or null when nothing live was there. */
  delete(command: DeleteDocumentCommand): Promise<number | null>;
  /** Newest first. Empty when the path never existed. */
  history(ref: ProjectRef, path: string): Promise<DocumentRevision[]>;
}
