import type { CascadeHit } from '../domain/cascade/document-cascade';
import type { LayerDocument } from '../domain/cascade/document';
import { TENANT_PROJECT, userProjectName } from '../domain/identity/identity';
import type { Principal } from '../domain/identity/principal';
import type { DocumentModel, EffectiveDocumentModel } from './models';

/** Names the project a document lives in, as the caller addresses it (not by internal id). */
export function documentModel(doc: LayerDocument, principal: Principal, projectName: string | null | undefined): DocumentModel {
  return { ...doc, projectName: projectNameOf(doc, principal, projectName) };
}

export function effectiveModel(hit: CascadeHit, principal: Principal, projectName: string | null | undefined): EffectiveDocumentModel {
  return { document: documentModel(hit.document, principal, projectName), source: hit.source, shadowed: hit.shadowed };
}

function projectNameOf(doc: LayerDocument, principal: Principal, projectName: string | null | undefined): string | null {
  switch (doc.layer) {
    case 'USER':
      return userProjectName(principal.user.login);
    case 'VANCE':
      return TENANT_PROJECT;
    case 'PROJECT':
      return projectName ?? null;
    case 'RESOURCE':
      return null;
  }
}
