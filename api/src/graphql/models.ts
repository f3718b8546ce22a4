/**
 * The shapes resolvers hand to GraphQL for types whose fields need the request (e.g. a
 * document's project *name*, which depends on the layer and the caller). Codegen maps the schema
 * types onto these (codegen.ts `mappers`).
 */
import type { Layer } from '../domain/cascade/layer';
import type { LayerDocument } from '../domain/cascade/document';
import type { Diagnostic } from '../domain/errors';
import type { ProjectPermission } from '../domain/access/project-permissions';
import type { Project, ProjectRole } from '../domain/identity/identity';

export interface DocumentModel extends LayerDocument {
  readonly projectName: string | null;
  /** Known when the document was just written (putDocument validated it); otherwise validated on demand. */
  readonly diagnostics?: readonly Diagnostic[];
}

export interface EffectiveDocumentModel {
  readonly document: DocumentModel;
  readonly source: Layer;
  readonly shadowed: readonly Layer[];
}

export interface ProjectModel extends Project {
  readonly myRole: ProjectRole | null;
  readonly myPermissions: readonly ProjectPermission[];
}

export interface MembershipModel {
  readonly project: string;
  readonly login: string;
  readonly role: ProjectRole;
}

export interface DocumentChangedModel {
  readonly layer: Layer;
  readonly project: string | null;
  readonly path: string;
  readonly version: number;
  readonly change: 'PUT' | 'DELETE';
  readonly author: string | null;
  readonly at: string;
}

/** A process event flattened for GraphQL: the event's own fields plus where and when. */
export type ProcessEventModel = import('../domain/processes/process-event').ProcessEvent & {
  readonly id: string;
  readonly processId: string;
  readonly at: string;
};
