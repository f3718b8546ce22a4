/**
 * The built-in server tools (seed 004 §5a, §6, §6b, §8; seed 000 §5c), wired to the domain services
 * they call. These are the deployment's tool catalog: the registry built from them is what recipes,
 * profiles and skills select from and what previews list (issue 15: a name-only catalog of tools
 * nobody implemented made previews list 34 tools while the model got 11).
 *
 * Label meanings (seed 004 §6.1): `read` has no effect; `write` changes project data; `side-effect`
 * reaches outside the project; `destructive` deletes or wipes (recipes remove it wholesale, so a
 * destructive tool is labelled `write` too); `executive` starts or steers processes.
 */
import type { DocumentCascade } from '../../cascade/document-cascade';
import type { DocumentService } from '../../documents/document-service';
import type { Manuals } from '../../recipes/manuals';
import type { RecipeLoader } from '../../recipes/recipe-loader';
import type { SkillResolver } from '../../skills/skill-resolver';
import type { ServerTool } from '../server-tool';
import type { ToolDescriptor } from '../tool-descriptor';
import { contextTools } from './context-tools';
import { manualTools } from './manual-tools';
import { processTools, type ProcessToolService } from './process-tools';
import { recipeTools } from './recipe-tools';
import { respondTool } from './respond-tool';
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
    respondTool(),
    ...contextTools(deps),
    ...manualTools(deps),
    ...recipeTools(deps),
    ...processTools(deps),
    skillReferenceDocTool(deps),
    ...workspaceTools(deps),
  ];
}

/**
 * The built-in tools' names, labels and descriptions, for checks that run without a server (`vance
 * lint`): the very list a server registers, so lint and save warn alike. The tools are built over
 * dependencies that refuse use: describing a tool never calls its services.
 */
export function builtinToolDescriptors(): ToolDescriptor[] {
  const unusable = new Proxy({}, { get: () => { throw new Error('a described tool is never invoked'); } });
  const deps = { manuals: unusable, recipes: unusable, cascade: unusable, skills: unusable, documents: unusable, processes: unusable, identity: unusable } as unknown as BuiltinToolDeps;
  return createBuiltinTools(deps).map(({ name, labels, description }) => ({ name, labels, description }));
}
