/**
 * What the caller may do in the selected project (Project.myPermissions, through react-admin's
 * usePermissions so that it is cached per project and reloaded after a login or a refresh). Pages
 * offer an action only when it is allowed; until the answer is in, nothing is allowed.
 */
import { usePermissions } from 'react-admin';
import type { Layer, ProjectPermission } from '../api/types';
import { WRITABLE_LAYERS } from '../api/types';
import { useProject } from './useAsync';

/** The permission that a write into each layer needs (RESOURCE: none is enough). */
export const LAYER_WRITE: Record<Layer, ProjectPermission | null> = {
  USER: 'WRITE_USER_LAYER',
  PROJECT: 'WRITE_PROJECT_LAYER',
  VANCE: 'WRITE_TENANT_LAYER',
  RESOURCE: null,
};

export interface Can {
  /** The answer is in; before it, `has` is false for everything. */
  readonly loaded: boolean;
  has(permission: ProjectPermission): boolean;
  writes(layer: Layer): boolean;
  readonly writableLayers: readonly Exclude<Layer, 'RESOURCE'>[];
}

export function useCan(): Can {
  const project = useProject();
  const { permissions, isPending } = usePermissions<ProjectPermission[]>({ project });
  const granted = new Set(permissions ?? []);
  const has = (permission: ProjectPermission) => granted.has(permission);
  const writes = (layer: Layer) => {
    const needed = LAYER_WRITE[layer];
    return needed !== null && granted.has(needed);
  };
  return { loaded: !isPending, has, writes, writableLayers: WRITABLE_LAYERS.filter(writes) };
}
