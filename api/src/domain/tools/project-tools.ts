/**
 * The tools a project's turns can select from (issue 19: the `projectTools` query and the dashboard's
 * tools page): the built-ins, then every tool source's tools for the caller's scope in that project,
 * each with where it comes from and its labels, plus what the sources could not offer. Client tools
 * are per session and not listed here. The same universe the turns use (tool-universe.ts).
 */
import type { CascadeScope } from '../cascade/scope';
import type { Principal } from '../identity/principal';
import type { ToolCatalog } from './tool-descriptor';
import type { ToolOrigin, ToolSourceProblem } from './tool-source';
import { descriptorOf, type ToolUniverse } from './tool-universe';

export interface ProjectTool {
  readonly name: string;
  readonly description: string;
  readonly labels: readonly string[];
  readonly deferred: boolean;
  readonly origin: ToolOrigin;
}

export interface ProjectToolList {
  readonly tools: readonly ProjectTool[];
  readonly problems: readonly ToolSourceProblem[];
}

export interface ProjectToolsDeps {
  readonly builtins: ToolCatalog;
  readonly universe: ToolUniverse;
  /** The caller's scope in the project (NOT_FOUND for a project the caller cannot see, another tenant's included). */
  scope(principal: Principal, project: string | null): Promise<CascadeScope>;
}

export class ProjectTools {
  constructor(private readonly deps: ProjectToolsDeps) {}

  async list(principal: Principal, project: string | null): Promise<ProjectToolList> {
    const scope = await this.deps.scope(principal, project);
    const set = await this.deps.universe.toolsFor(scope, async () => principal);
    const builtins: ProjectTool[] = this.deps.builtins.list().map((t) => ({
      name: t.name, description: t.description ?? '', labels: t.labels, deferred: t.deferred === true, origin: { kind: 'BUILTIN' },
    }));
    // The universe already keeps the built-ins' names (tool-universe.ts).
    const sourced: ProjectTool[] = set.tools.map((t) => ({ ...descriptorOf(t), description: t.description, deferred: t.deferred === true, origin: t.origin }));
    return { tools: [...builtins, ...sourced], problems: set.problems };
  }
}
