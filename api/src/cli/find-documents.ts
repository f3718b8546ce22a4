import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** A skill or recipe file found on disk, with the name its location gives it. */
export interface FoundDocument {
  readonly kind: 'skill' | 'skill-evals' | 'recipe' | 'recipe-categories' | 'engine-prompt' | 'tool' | 'mcp-pack';
  readonly file: string;
  /** The file as the command line named it: the root as given, then the path below it. */
  readonly shown: string;
  /** The skill's folder name or the recipe's file name without `.yaml`. */
  readonly name: string;
  /** The document path inside a layer (`_vance/...`), for diagnostics and path-dependent rules. */
  readonly documentPath: string;
}

/** A command-line path that could not be read: missing, unreadable, or a file that is no skill or recipe. */
export interface UnreadableRoot {
  readonly root: string;
  readonly problem: string;
}

/**
 * Walks the given folders for `SKILL.md` files (named by their folder), for YAML files in a
 * `recipes` folder (named by their file), for tool documents in a `tools` folder (issue 19), the layouts of seed 000 §9 and seed 004 §3, and for engine
 * prompt documents in a `prompts` folder (`<engine>-prompt.md`, seed 004 §5.6). A root may
 * also be one such file. Roots that cannot be read are returned, not thrown: one line each.
 */
export async function findDocuments(roots: readonly string[]): Promise<{ found: FoundDocument[]; unreadable: UnreadableRoot[] }> {
  const found: FoundDocument[] = [];
  const unreadable: UnreadableRoot[] = [];
  for (const root of roots) {
    const file = path.resolve(root);
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(file)).isDirectory();
    } catch (error) {
      unreadable.push({ root, problem: problemOf(error) });
      continue;
    }
    if (!isDirectory) {
      const doc = classify(file, root);
      if (doc) found.push(doc);
      else unreadable.push({ root, problem: 'not a SKILL.md, a recipe (recipes/<name>.yaml), an engine prompt (prompts/<engine>-prompt.md) a tool (tools/<name>.yaml) or an MCP pack (tools/<pack>.mcp.yaml)' });
      continue;
    }
    await walk(file, root.replace(/[\\/]+$/, '') || root, found);
  }
  return { found: found.sort((a, b) => a.shown.localeCompare(b.shown)), unreadable };
}

async function walk(dir: string, shownDir: string, found: FoundDocument[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const file = path.join(dir, entry.name);
    const shown = `${shownDir}/${entry.name}`;
    if (entry.isDirectory()) await walk(file, shown, found);
    else if (entry.isFile()) {
      const doc = classify(file, shown);
      if (doc) found.push(doc);
    }
  }
}

function classify(file: string, shown: string): FoundDocument | null {
  const parts = file.split(path.sep);
  const base = parts[parts.length - 1]!;
  const parent = parts[parts.length - 2] ?? '';
  if (base === 'SKILL.md') return { kind: 'skill', file, shown, name: parent, documentPath: `_vance/skills/${parent}/SKILL.md` };
  // A skill's trigger evals (issue 20), beside its SKILL.md.
  if (base === 'evals.yaml' && parts[parts.length - 3] === 'skills') return { kind: 'skill-evals', file, shown, name: parent, documentPath: `_vance/skills/${parent}/evals.yaml` };
  if (parent === 'recipes' && /\.ya?ml$/.test(base)) {
    const name = base.replace(/\.ya?ml$/, '');
    return { kind: 'recipe', file, shown, name, documentPath: `_vance/recipes/${name}.yaml` };
  }
  // An engine's default prompt document (`_vance/prompts/<engine>-prompt.md`): a template every turn of the engine renders.
  if (parent === 'prompts' && /^[^/]+-prompt\.md$/.test(base)) {
    return { kind: 'engine-prompt', file, shown, name: base.replace(/\.md$/, ''), documentPath: `_vance/prompts/${base}` };
  }
  // An MCP tool pack (`_vance/tools/<pack>.mcp.yaml`, issue 19).
  if (parent === 'tools' && base.endsWith('.mcp.yaml')) {
    return { kind: 'mcp-pack', file, shown, name: base.slice(0, -'.mcp.yaml'.length), documentPath: `_vance/tools/${base}` };
  }
  // A server tool document (`_vance/tools/<name>.yaml`, issue 19); `<pack>.mcp.yaml` packs are not this kind.
  if (parent === 'tools' && /\.yaml$/.test(base) && !base.endsWith('.mcp.yaml')) {
    const name = base.replace(/\.yaml$/, '');
    return { kind: 'tool', file, shown, name, documentPath: `_vance/tools/${base}` };
  }
  if (parent === 'config' && base === 'recipe_categories.yaml') {
    return { kind: 'recipe-categories', file, shown, name: 'recipe_categories', documentPath: '_vance/config/recipe_categories.yaml' };
  }
  return null;
}

function problemOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'not readable (permission denied)';
  return error instanceof Error ? error.message : String(error);
}
