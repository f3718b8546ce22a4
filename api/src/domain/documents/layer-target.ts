import { layerAccess, projectAccess, type Access } from '../access/layer-access';
import { InvalidInputError, NotFoundError } from '../errors';
import type { Layer } from '../cascade/layer';
import type { CascadeScope } from '../cascade/scope';
import type { Project } from '../identity/identity';
import type { IdentityService } from '../identity/identity-service';
import type { Principal } from '../identity/principal';

/**
 * Resolves what a (layer, project name) pair means for a caller: USER is always the caller's own
 * `_user_<login>` project and VANCE the tenant's `_tenant` project, whatever `project` says; PROJECT
 * needs a project the caller can see. Also builds the cascade scope of a request.
 */
export interface LayerTarget {
  readonly layer: Layer;
  readonly scope: CascadeScope;
  /** The project backing the layer (null for RESOURCE). */
  readonly projectId: string | null;
  readonly access: Access;
}

export class LayerTargetResolver {
  constructor(private readonly identity: IdentityService) {}

  async resolve(principal: Principal, layer: Layer, projectName: string | null | undefined): Promise<LayerTarget> {
    // `project` only matters for PROJECT: USER and VANCE are the caller's own and the tenant's, whatever it says.
    const scope = await this.scope(principal, layer === 'PROJECT' ? requireProject(projectName) : null);
    switch (layer) {
      case 'USER':
        return { layer, scope, projectId: principal.userProjectId, access: 'WRITE' };
      case 'VANCE':
        return { layer, scope, projectId: principal.tenantProjectId, access: layerAccess(principal, 'VANCE', null, null) };
      case 'RESOURCE':
        return { layer, scope, projectId: null, access: 'READ' };
      case 'PROJECT': {
        const { project, membership } = await this.identity.findProject(principal, requireProject(projectName));
        if (project.kind === 'SYSTEM') {
          const instead = project.ownerUserId ? 'USER' : 'VANCE';
          throw new InvalidInputError('SYSTEM_PROJECT_LAYER', `'${project.name}' is the ${instead} layer; address it with layer ${instead}`, 'project');
        }
        const access = projectAccess(principal, project, membership);
        if (access === 'NONE') throw new NotFoundError('Project', project.name);
        return { layer, scope, projectId: project.id, access };
      }
      default: {
        const never: never = layer;
        return never;
      }
    }
  }

  /** A project's name for messages (no access check: callers already hold the id); null when gone. */
  projectName(tenantId: string, projectId: string): Promise<string | null> {
    return this.identity.projectNameOf(tenantId, projectId);
  }

  /** The cascade scope for "me, working in this project" (no project: the tenant project). */
  async scope(principal: Principal, projectName: string | null | undefined): Promise<CascadeScope> {
    return scopeOf(principal, projectName ? await this.readableProject(principal, projectName) : null);
  }

  /** The scope at once when it needs no lookup (no project named), else undefined (use `scope`). */
  scopeWithoutProject(principal: Principal, projectName: string | null | undefined): CascadeScope | undefined {
    return projectName ? undefined : scopeOf(principal, null);
  }

  private async readableProject(principal: Principal, name: string): Promise<Project> {
    const { project, membership } = await this.identity.findProject(principal, name);
    if (projectAccess(principal, project, membership) === 'NONE') throw new NotFoundError('Project', name);
    return project;
  }
}

function scopeOf(principal: Principal, project: Project | null): CascadeScope {
  return {
    tenantId: principal.tenant.id,
    userProjectId: principal.userProjectId,
    // System projects are already the USER and VANCE layers; searching them twice would misreport shadowing.
    projectId: project && project.kind === 'NORMAL' ? project.id : null,
    tenantProjectId: principal.tenantProjectId,
  };
}

function requireProject(name: string | null | undefined): string {
  if (!name) throw new NotFoundError('Project', '(none given)');
  return name;
}
