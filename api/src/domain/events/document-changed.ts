import type { StoredLayer } from '../cascade/layer';

/** Published after every successful document write or delete. */
export interface DocumentChanged {
  readonly tenantId: string;
  readonly projectId: string;
  readonly layer: StoredLayer;
  readonly path: string;
  readonly version: number;
  readonly change: 'PUT' | 'DELETE';
  readonly author: string | null;
  readonly at: string;
}

export const DOCUMENT_CHANGED_TOPIC = 'document_changed';
