/**
 * `manual_list` / `manual_read` (seed 004 §6b): the curated how-to manuals of the folders in the
 * process's `params.manualPaths` plus the `manualPaths` of its active skills (seed 000 §2), through
 * the cascade, first hit per name in path order. A recipe without `manualPaths` (and no skill paths)
 * gets `_vance/manuals/`; `manualPaths: []` means no recipe manuals. A string is read as one folder.
 */
import { DEFAULT_MANUAL_PATHS } from '../../recipes/recipe-catalog';
import { sanitiseManualPaths, type Manuals } from '../../recipes/manuals';
import type { SkillResolver } from '../../skills/skill-resolver';
import type { ToolInvocationContext } from '../server-tool';
import { objectSchema } from './json-schema';
import { json, ok, quoteList, refuse, resolveActiveSkills, str, type BuiltinTool } from './tool-support';

export interface ManualToolDeps {
  readonly manuals: Manuals;
  readonly skills: SkillResolver;
}

/** How many names an unknown-name answer lists; manual_list has them all. */
const AVAILABLE_SHOWN = 20;

/**
 * Recipe paths first (the recipe author's order), then each active skill's paths. The default
 * folder only when the recipe sets no manualPaths at all and no skill adds any: an explicit `[]`
 * is the author saying "no manuals".
 */
export async function manualPathsOf(skills: SkillResolver, ctx: ToolInvocationContext): Promise<string[]> {
  const raw = ctx.process.engineParams['manualPaths'];
  const unset = raw === undefined || raw === null;
  const fromRecipe = Array.isArray(raw) ? raw.filter((p): p is string => typeof p === 'string') : typeof raw === 'string' ? [raw] : [];
  const fromSkills = (await resolveActiveSkills(skills, ctx)).flatMap((s) => s.skill.manualPaths);
  const paths = [...new Set([...fromRecipe, ...fromSkills])];
  return paths.length === 0 && unset ? [...DEFAULT_MANUAL_PATHS] : paths;
}

function unknownManual(name: string, folders: readonly string[], available: readonly string[]): string {
  if (folders.length === 0) return `No manual named '${name}': this process has no manual folders (its recipe sets manualPaths: []), so there are no manuals to read.`;
  const shown = available.slice(0, AVAILABLE_SHOWN);
  const more = available.length > shown.length ? ` and ${available.length - shown.length} more` : '';
  return `No manual named '${name}' in ${quoteList(folders)}. ${available.length} available: ${quoteList(shown)}${more}. ` +
    'Call manual_list for the full list with folders and layers, then manual_read one of those names.';
}

export function manualTools(deps: ManualToolDeps): BuiltinTool[] {
  const manualList: BuiltinTool = {
    name: 'manual_list',
    labels: ['read', 'docs'],
    description:
      'List the how-to manuals available to you: the Markdown files in the manual folders configured for this ' +
      'process (the recipe\'s manualPaths and those of your active skills). Returns JSON { manuals: [{ name, folder, source }], count }. ' +
      'Call it when you need guidance on how to do something here, then load one with manual_read(name).',
    parameters: objectSchema({}),
    async invoke(_args, ctx) {
      const paths = await manualPathsOf(deps.skills, ctx);
      const entries = await deps.manuals.listManuals(ctx.scope, paths);
      return json({ manuals: entries.map((e) => ({ name: e.name, folder: e.folder, source: e.source })), count: entries.length });
    },
  };

  const manualRead: BuiltinTool = {
    name: 'manual_read',
    labels: ['read', 'docs'],
    description:
      'Read one how-to manual by the name manual_list shows (".md" optional), its path below a manual folder ' +
      '("essay/STYLE.md") or its full path; "/" or "\\" both work. Returns its path, layer, size and Markdown text.',
    parameters: objectSchema({
      name: { type: 'string', minLength: 1, maxLength: 200, description: 'A manual name from manual_list, or its path below a manual folder or from the document root' },
    }, ['name']),
    async invoke(args, ctx) {
      const name = str(args, 'name');
      const paths = await manualPathsOf(deps.skills, ctx);
      const lookup = await deps.manuals.findManual(ctx.scope, paths, name);
      if (lookup.kind === 'invalid') return refuse(`Invalid arguments for 'manual_read': '${name}' is not a valid manual name: ${lookup.reason}.`);
      if (lookup.kind === 'missing') {
        const available = (await deps.manuals.listManuals(ctx.scope, paths)).map((e) => e.name);
        return refuse(unknownManual(name, sanitiseManualPaths(paths).folders, available));
      }
      const m = lookup.manual;
      return ok(`# Manual: ${m.name}\nPath: ${m.path}\nLayer: ${m.source}\nSize: ${m.size} bytes\n\n${m.content}`);
    },
  };

  return [manualList, manualRead];
}
