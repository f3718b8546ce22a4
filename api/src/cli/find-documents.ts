import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** A skill or recipe file found on disk, with the name its location gives it. */
export interface FoundDocument {
  readonly kind: 'skill' | 'recipe' | 'recipe-categories';
  readonly file: string;
  /** The skill's folder name or the recipe's file name without `.yaml`. */
  readonly name: string;
  /** The document path inside a layer (`_vance/...`), for diagnostics and path-dependent rules. */
  readonly documentPath: string;
}

/**
 * Walks the given folders for `SKILL.md` files (named by their folder) and for YAML files in a
 * `recipes` folder (named by their file), the layouts of seed 000 §9 and seed 004 §3.
 */
export async function findDocuments(roots: readonly string[]): Promise<FoundDocument[]> {
  const found: FoundDocument[] = [];
  for (const root of roots) await walk(path.resolve(root), found);
  return found.sort((a, b) => a.file.localeCompare(b.file));
}

async function walk(dir: string, found: FoundDocument[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) await walk(file, found);
    else if (entry.isFile()) {
      const doc = classify(file);
      if (doc) found.push(doc);
    }
  }
}

function classify(file: string): FoundDocument | null {
  const parts = file.split(path.sep);
  const base = parts[parts.length - 1]!;
  const parent = parts[parts.length - 2] ?? '';
  if (base === 'SKILL.md') return { kind: 'skill', file, name: parent, documentPath: `_vance/skills/${parent}/SKILL.md` };
  if (parent === 'recipes' && /\.ya?ml$/.test(base)) {
    const name = base.replace(/\.ya?ml$/, '');
    return { kind: 'recipe', file, name, documentPath: `_vance/recipes/${name}.yaml` };
  }
  if (parent === 'config' && base === 'recipe_categories.yaml') {
    return { kind: 'recipe-categories', file, name: 'recipe_categories', documentPath: '_vance/config/recipe_categories.yaml' };
  }
  return null;
}
