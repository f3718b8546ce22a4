/**
 * The implemented built-in server tools (seed 004 §6, §6b, §8; seed 000 §5c), wired to the domain
 * services they call. The catalog of every built-in name with its labels is builtin-tools.ts; the
 * labels here match it (a test checks).
 */
import type { DocumentCascade } from '../../cascade/document-cascade';
import type { DocumentService } from '../../documents/document-service';
import type { Manuals } from '../../recipes/manuals';
import type { RecipeLoader } from '../../recipes/recipe-loader';
import type { SkillResolver } from '../../skills/skill-resolver';
import type { ServerTool } from '../server-tool';
import { manualTools } from './manual-tools';
import { processTools, type ProcessToolService } from './process-tools';
import { recipeTools } from './recipe-tools';
import { skillReferenceDocTool } from './skill-reference-doc';
import type { ProjectNames } from './tool-support';
import { workspaceTools } from './workspace-tools';

export interface BuiltinToolDeps {
  readonly manuals: Manuals;
  readonly recipes: RecipeLoader;
  readonly cascade: DocumentCascade;
  readonly skills: SkillResolver;
  readonly documents: DocumentService;
  readonly processes: ProcessToolService;
  /** IdentityService: the process's project name (services address projects by name). */
  readonly identity: ProjectNames;
}

export function createBuiltinTools(deps: BuiltinToolDeps): ServerTool[] {
  return [
    ...manualTools(deps),
    ...recipeTools(deps),
    ...processTools(deps),
    skillReferenceDocTool(deps),
    ...workspaceTools(deps),
  ];
}
