import type { ResourceDocument } from './document';

/**
 * The RESOURCE layer: bundled documents, read once at boot (bundled/ reads `vance-defaults/`),
 * immutable afterwards. Kept in memory; it is small and on every lookup's path.
 */
export class ResourceLayer {
  private readonly byPath: ReadonlyMap<string, ResourceDocument>;
  private readonly sortedPaths: readonly string[];

  constructor(documents: Iterable<ResourceDocument>) {
    const map = new Map<string, ResourceDocument>();
    for (const doc of documents) map.set(doc.path, Object.freeze({ ...doc }));
    this.byPath = map;
    this.sortedPaths = [...map.keys()].sort();
  }

  get(path: string): ResourceDocument | undefined {
    return this.byPath.get(path);
  }

  list(prefix: string): ResourceDocument[] {
    return this.sortedPaths.filter((p) => p.startsWith(prefix)).map((p) => this.byPath.get(p)!);
  }

  get size(): number {
    return this.byPath.size;
  }
}
