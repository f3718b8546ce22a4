import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { normalizeDocumentPath, ResourceLayer, type ResourceDocument } from '../domain/cascade';

/**
 * Reads `vance-defaults/` once at boot into the RESOURCE layer (seed 000 §3: bundled documents
 * change with a restart). Paths are the same `_vance/...` paths every layer uses. Dotfiles are
 * skipped; a file whose path would not be a valid document path fails the boot loudly.
 */
export async function loadResourceLayer(root: string): Promise<ResourceLayer> {
  const documents: ResourceDocument[] = [];
  for (const file of await listFiles(root)) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    documents.push({ path: normalizeDocumentPath(relative), content: await readFile(file, 'utf8') });
  }
  return new ResourceLayer(documents);
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full)));
    else if (entry.isFile()) files.push(full);
  }
  return files.sort();
}
