/**
 * `manual_list` / `manual_read` (seed 004 §6b): the curated how-to manuals of the folders in the
 * process's `params.manualPaths` plus the `manualPaths` of its active skills (seed 000 §2), through
 * the cascade, first hit per name in path order. Without any path: `_vance/manuals/`.
 */
import { DEFAULT_MANUAL_PATHS } from '../../recipes/recipe-catalog';
import type { Manuals } from '../../recipes/manuals';
import type { SkillResolver } from '../../skills/skill-resolver';
import type { ToolInvocationContext } from '../server-tool';
import { objectSchema } from './json-schema';
import { json, ok, quoteList, refuse, resolveActiveSkills, str, type BuiltinTool } from './tool-support';

export interface ManualToolDeps {
  readonly manuals: Manuals;
  readonly skills: SkillResolver;
}

/** Recipe paths first (the recipe author's order), then each active skill's paths; default when none. */
export async function manualPathsOf(skills: SkillResolver, ctx: ToolInvocationContext): Promise<string[]> {
  const raw = ctx.process.engineParams['manualPaths'];
  const fromRecipe = Array.isArray(raw) ? raw.filter((p): p is string => typeof p === 'string') : typeof raw === 'string' ? [raw] : [];
  const fromSkills = (await resolveActiveSkills(skills, ctx)).flatMap((s) => s.skill.manualPaths);
  const paths = [...new Set([...fromRecipe, ...fromSkills])];
  return paths.length > 0 ? paths : [...DEFAULT_MANUAL_PATHS];
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
      'Read one how-to manual by name, as listed by manual_list (the file name without .md, e.g. "recipe-authoring"). ' +
      'Returns the Markdown text of the first manual folder that has it. An unknown name is an error that lists the available manuals.',
    parameters: objectSchema({
      name: { type: 'string', minLength: 1, maxLength: 200, description: 'The manual name from manual_list, without .md' },
    }, ['name']),
    async invoke(args, ctx) {
      const name = str(args, 'name');
      const paths = await manualPathsOf(deps.skills, ctx);
      const manual = await deps.manuals.readManual(ctx.scope, paths, name);
      if (!manual) {
        const available = (await deps.manuals.listManuals(ctx.scope, paths)).map((e) => e.name);
        return refuse(`No manual named '${name}'. Available manuals: ${quoteList(available)}.`);
      }
      return ok(`# Manual: ${manual.name} (${manual.path})\n\n${manual.content}`);
    },
  };

  return [manualList, manualRead];
}
