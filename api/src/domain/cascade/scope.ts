import type { Layer } from './layer';

/**
 * Which project backs each stored layer for one lookup. `userProjectId` is null for system calls
 * without a user (seed 000 §3: step 1 is skipped); `projectId` is null when the caller works in the
 * tenant project only, then the PROJECT layer is skipped rather than searched twice.
 */
export interface CascadeScope {
  readonly tenantId: string;
  readonly userProjectId: string | null;
  readonly projectId: string | null;
  readonly tenantProjectId: string;
}

export function projectIdOfLayer(scope: CascadeScope, layer: Layer): string | null {
  switch (layer) {
    case 'USER':
      return scope.userProjectId;
    case 'PROJECT':
      return scope.projectId === scope.tenantProjectId ? null : scope.projectId;
    case 'VANCE':
      return scope.tenantProjectId;
    case 'RESOURCE':
      return null;
    default: {
      const never: never = layer;
      return never;
    }
  }
}
