import type { LayerDocument, ResourceDocument, StoredDocument } from './document';
import type { CachedDocumentReader } from './document-cache';
import { normalizeDocumentPath, normalizePathPrefix } from './document-path';
import { LAYERS, type Layer } from './layer';
import type { ResourceLayer } from './resource-layer';
import { projectIdOfLayer, type CascadeScope } from './scope';

/** The effective document for a path, the layer it came from, and the outer layers it hides. */
export interface CascadeHit {
  readonly document: LayerDocument;
  readonly source: Layer;
  /** Outer layers that also hold the path, innermost first. */
  readonly shadowed: readonly Layer[];
}

/**
 * lookupCascade / listByPrefixCascade (seed 000 §3, seed 004 §3): USER → PROJECT → VANCE →
 * RESOURCE, first hit wins the whole document; listings merge inner over outer by path.
 * The only reader of layered documents; skill and recipe loaders go through it.
 */
export class DocumentCascade {
  constructor(
    private readonly reader: CachedDocumentReader,
    private readonly resources: ResourceLayer,
  ) {}

  async lookupCascade(scope: CascadeScope, rawPath: string): Promise<CascadeHit | null> {
    const path = normalizeDocumentPath(rawPath);
    // The path is normalized once here, not again per layer (a warm lookup is a few map reads: issue 18).
    return cascadeHit(this.peekNormalized(scope, path) ?? await Promise.all(LAYERS.map((layer) => this.readNormalized(scope, layer, path))));
  }

  /**
   * lookupCascade's answer when the cache holds every layer, without a promise; undefined when a
   * layer would need a read. Lets a warm GraphQL lookup resolve synchronously (issue 18).
   */
  peekCascade(scope: CascadeScope, rawPath: string): CascadeHit | null | undefined {
    const found = this.peekNormalized(scope, normalizeDocumentPath(rawPath));
    return found ? cascadeHit(found) : undefined;
  }

  /** One layer only (for editors and the `document(layer, …)` query); null when absent there. */
  async readLayer(scope: CascadeScope, layer: Layer, rawPath: string): Promise<LayerDocument | null> {
    return this.readNormalized(scope, layer, normalizeDocumentPath(rawPath));
  }

  private async readNormalized(scope: CascadeScope, layer: Layer, path: string): Promise<LayerDocument | null> {
    const peeked = this.peekLayer(scope, layer, path);
    if (peeked !== undefined) return peeked;
    const doc = await this.reader.find({ tenantId: scope.tenantId, projectId: projectIdOfLayer(scope, layer)! }, path);
    return doc ? fromStored(layer, doc) : null;
  }

  /** Every layer's answer when the cache holds them all (no promise per layer), else null. */
  private peekNormalized(scope: CascadeScope, path: string): (LayerDocument | null)[] | null {
    const found: (LayerDocument | null)[] = [];
    for (const layer of LAYERS) {
      const doc = this.peekLayer(scope, layer, path);
      if (doc === undefined) return null;
      found.push(doc);
    }
    return found;
  }

  /** A layer's answer without a read (RESOURCE, a skipped layer, a cached one), or undefined. */
  private peekLayer(scope: CascadeScope, layer: Layer, path: string): LayerDocument | null | undefined {
    if (layer === 'RESOURCE') {
      const doc = this.resources.get(path);
      return doc ? fromResource(doc) : null;
    }
    const projectId = projectIdOfLayer(scope, layer);
    if (!projectId) return null;
    const doc = this.reader.peek({ tenantId: scope.tenantId, projectId }, path);
    return doc ? fromStored(layer, doc) : doc;
  }

  async listLayer(scope: CascadeScope, layer: Layer, rawPrefix: string): Promise<LayerDocument[]> {
    const prefix = normalizePathPrefix(rawPrefix);
    if (layer === 'RESOURCE') return this.resources.list(prefix).map(fromResource);
    const projectId = projectIdOfLayer(scope, layer);
    if (!projectId) return [];
    const docs = await this.reader.listByPrefix({ tenantId: scope.tenantId, projectId }, prefix);
    return docs.map((d) => fromStored(layer, d));
  }

  async listByPrefixCascade(scope: CascadeScope, rawPrefix: string): Promise<CascadeHit[]> {
    const perLayer = await Promise.all(LAYERS.map((layer) => this.listLayer(scope, layer, rawPrefix)));
    const byPath = new Map<string, { document: LayerDocument; shadowed: Layer[] }>();
    for (const docs of perLayer) {
      for (const doc of docs) {
        const hit = byPath.get(doc.path);
        if (hit) hit.shadowed.push(doc.layer);
        else byPath.set(doc.path, { document: doc, shadowed: [] });
      }
    }
    return [...byPath.keys()]
      .sort()
      .map((path) => {
        const hit = byPath.get(path)!;
        return { document: hit.document, source: hit.document.layer, shadowed: hit.shadowed };
      });
  }
}

function fromStored(layer: Layer, doc: StoredDocument): LayerDocument {
  return {
    layer,
    projectId: doc.projectId,
    path: doc.path,
    content: doc.content,
    version: doc.version,
    updatedAt: doc.updatedAt,
    updatedBy: doc.updatedBy,
  };
}

function fromResource(doc: ResourceDocument): LayerDocument {
  return { layer: 'RESOURCE', projectId: null, path: doc.path, content: doc.content, version: 1, updatedAt: null, updatedBy: null };
}

/** The innermost document wins; the outer layers that also hold the path are shadowed by it. */
function cascadeHit(found: readonly (LayerDocument | null)[]): CascadeHit | null {
  let winner: LayerDocument | null = null;
  const shadowed: Layer[] = [];
  for (const doc of found) {
    if (doc && winner) shadowed.push(doc.layer);
    else if (doc) winner = doc;
  }
  return winner && { document: winner, source: winner.layer, shadowed };
}
