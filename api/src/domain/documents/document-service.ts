import type { CascadeHit, DocumentCascade } from '../cascade/document-cascade';
import type { CachedDocumentReader } from '../cascade/document-cache';
import type { DocumentRevision, LayerDocument } from '../cascade/document';
import { normalizeDocumentPath } from '../cascade/document-path';
import type { DocumentStore } from '../cascade/document-store';
import { DocumentTooLargeError } from '../cascade/errors';
import type { Layer, StoredLayer } from '../cascade/layer';
import type { CascadeScope } from '../cascade/scope';
import { InvalidInputError } from '../errors';
import { findUnstorable } from '../shared/storable-text';
import type { Principal } from '../identity/principal';
import type { Diagnostic } from '../errors';
import { DocumentInvalidError, hasErrors, type DocumentChecker } from './document-validator';
import { LayerReadOnlyError } from './errors';
import type { LayerTargetResolver } from './layer-target';

export interface DocumentServiceDeps {
  readonly targets: LayerTargetResolver;
  readonly cascade: DocumentCascade;
  readonly store: DocumentStore;
  readonly cache: CachedDocumentReader;
  readonly maxDocumentBytes: number;
  /** Structured documents (skills, recipes) are checked before they are written. */
  readonly validator?: DocumentChecker;
  /** What the documents beside one say about it (a SKILL.md's reference and script files); none: not checked. */
  readonly siblings?: SiblingChecker;
}

export interface SiblingChecker {
  siblingDiagnostics(scope: CascadeScope, layer: Layer, path: string, content: string): Promise<Diagnostic[]>;
}

/** Where a draft would be saved, for validateDocument's checks against the documents beside it. */
export interface DraftPlace {
  readonly project: string;
  readonly layer: Layer;
}

/** A written document with the diagnostics its write met, so that nobody validates it a second time. */
export interface WrittenDocument extends LayerDocument {
  readonly diagnostics: readonly Diagnostic[];
}

export interface PutOptions {
  readonly expectedVersion?: number | null;
  /** Write even when the document does not validate (an author saving work in progress). */
  readonly force?: boolean | null;
}

/**
 * Documents as callers see them: per layer (editors) and effective (the cascade), with the ACL of
 * seed 000 §14 applied first, and every write invalidating the cache and announced by the store with the write.
 */
export class DocumentService {
  constructor(private readonly deps: DocumentServiceDeps) {}

  async list(principal: Principal, layer: Layer, project: string | null | undefined, prefix = ''): Promise<LayerDocument[]> {
    const target = await this.deps.targets.resolve(principal, layer, project);
    return this.deps.cascade.listLayer(target.scope, layer, prefix);
  }

  async get(principal: Principal, layer: Layer, project: string | null | undefined, path: string): Promise<LayerDocument | null> {
    const target = await this.deps.targets.resolve(principal, layer, project);
    return this.deps.cascade.readLayer(target.scope, layer, path);
  }

  async effective(principal: Principal, project: string | null | undefined, path: string): Promise<CascadeHit | null> {
    return this.deps.cascade.lookupCascade(await this.deps.targets.scope(principal, project), path);
  }

  /**
   * effective's answer when it needs no read (no project named, every layer cached), without a
   * promise; undefined otherwise (call `effective`). Same scope, same cache, same answer.
   */
  effectiveIfCached(principal: Principal, project: string | null | undefined, path: string): CascadeHit | null | undefined {
    const scope = this.deps.targets.scopeWithoutProject(principal, project);
    return scope && this.deps.cascade.peekCascade(scope, path);
  }

  async effectiveList(principal: Principal, project: string | null | undefined, prefix = ''): Promise<CascadeHit[]> {
    return this.deps.cascade.listByPrefixCascade(await this.deps.targets.scope(principal, project), prefix);
  }

  async history(principal: Principal, layer: Layer, project: string | null | undefined, path: string): Promise<DocumentRevision[]> {
    const target = await this.deps.targets.resolve(principal, layer, project);
    const normalized = normalizeDocumentPath(path);
    if (!target.projectId) return [];
    return this.deps.store.history({ tenantId: principal.tenant.id, projectId: target.projectId }, normalized);
  }

  async put(
    principal: Principal, layer: Layer, project: string | null | undefined,
    path: string, content: string, options: PutOptions = {},
  ): Promise<WrittenDocument> {
    const { expectedVersion, force } = options;
    const target = await this.writableTarget(principal, layer, project);
    const normalized = normalizeDocumentPath(path);
    // The API refuses such text before any resolver; this also covers tools and scripts that write (issue 13).
    const unstorable = findUnstorable(content);
    if (unstorable) throw new InvalidInputError('UNSTORABLE_TEXT', `The content of '${normalized}' contains ${unstorable.what} at offset ${unstorable.index}; it cannot be stored`, 'content');
    const diagnostics = await this.validate(normalized, content);
    if (!force && hasErrors(diagnostics)) throw new DocumentInvalidError(normalized, diagnostics);
    const ref = { tenantId: principal.tenant.id, projectId: target.projectId };
    // The store announces the change with the write (issue 14): a write that failed announced nothing.
    const doc = await this.deps.store.put({ ...ref, path: normalized, content, author: principal.user.login, ...versionArg(expectedVersion), announce: { layer: target.layer } });
    this.deps.cache.invalidate(target.projectId);
    return { layer, projectId: doc.projectId, path: doc.path, content: doc.content, version: doc.version, updatedAt: doc.updatedAt, updatedBy: doc.updatedBy, diagnostics };
  }

  /**
   * The diagnostics a write of `content` at `path` would meet (validateDocument, putDocument): the
   * size limit first, so that no validation reads more than a document may hold.
   */
  async validate(path: string, content: string): Promise<Diagnostic[]> {
    const normalized = normalizeDocumentPath(path);
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > this.deps.maxDocumentBytes) throw new DocumentTooLargeError(normalized, bytes, this.deps.maxDocumentBytes);
    return (await this.deps.validator?.validate(normalized, content)) ?? [];
  }

  /**
   * validateDocument: `validate`, and with a place also what the documents beside `path` in that
   * layer of that project say (a SKILL.md's missing reference file), as they will once it is saved.
   * The caller must be able to read the project (NOT_FOUND otherwise).
   */
  async validateDraft(principal: Principal, path: string, content: string, place: DraftPlace | null): Promise<Diagnostic[]> {
    const scope = place ? await this.deps.targets.scope(principal, place.project) : null;
    const diagnostics = await this.validate(path, content);
    if (!place || !scope || !this.deps.siblings) return diagnostics;
    return [...diagnostics, ...(await this.deps.siblings.siblingDiagnostics(scope, place.layer, normalizeDocumentPath(path), content))];
  }

  /** Soft delete; the next lookup falls through to the next outer layer (seed 000 §8 "rollback"). */
  async delete(
    principal: Principal, layer: Layer, project: string | null | undefined, path: string, expectedVersion?: number | null,
  ): Promise<boolean> {
    const target = await this.writableTarget(principal, layer, project);
    const normalized = normalizeDocumentPath(path);
    const ref = { tenantId: principal.tenant.id, projectId: target.projectId };
    const version = await this.deps.store.delete({ ...ref, path: normalized, author: principal.user.login, ...versionArg(expectedVersion), announce: { layer: target.layer } });
    if (version === null) return false;
    this.deps.cache.invalidate(target.projectId);
    return true;
  }

  private async writableTarget(principal: Principal, layer: Layer, project: string | null | undefined) {
    if (layer === 'RESOURCE') throw new LayerReadOnlyError(layer, 'bundled documents change with the code; override them in an inner layer');
    const target = await this.deps.targets.resolve(principal, layer, project);
    if (target.access !== 'WRITE' || !target.projectId) {
      throw new LayerReadOnlyError(layer, layer === 'VANCE' ? 'only tenant admins write it' : 'only project admins write it');
    }
    return { ...target, layer: layer as StoredLayer, projectId: target.projectId };
  }

}

function versionArg(expectedVersion: number | null | undefined): { expectedVersion?: number } {
  if (expectedVersion === null || expectedVersion === undefined) return {};
  if (!Number.isInteger(expectedVersion) || expectedVersion < 0) {
    throw new InvalidInputError('INVALID_VERSION', 'expectedVersion must be an integer ≥ 0', 'expectedVersion');
  }
  return { expectedVersion };
}
