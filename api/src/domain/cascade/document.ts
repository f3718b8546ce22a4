import type { Layer } from './layer';

/** A live document row of a stored layer, keyed by (tenant, project, path). */
export interface StoredDocument {
  readonly id: string;
  readonly tenantId: string;
  readonly projectId: string;
  readonly path: string;
  readonly content: string;
  /** Increments on every write and on delete; optimistic concurrency compares it. */
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly updatedBy: string | null;
}

/** One entry of a document's history; a delete is an entry with `deleted` and no content. */
export interface DocumentRevision {
  readonly version: number;
  readonly content: string | null;
  readonly deleted: boolean;
  readonly createdAt: Date;
  readonly author: string | null;
}

/** A bundled document from `vance-defaults/` (the RESOURCE layer). */
export interface ResourceDocument {
  readonly path: string;
  readonly content: string;
}

/** A document as seen through one layer of the cascade. */
export interface LayerDocument {
  readonly layer: Layer;
  readonly projectId: string | null;
  readonly path: string;
  readonly content: string;
  readonly version: number;
  readonly updatedAt: Date | null;
  readonly updatedBy: string | null;
}
