/**
 * `whoami` / `current_time`: what a model cannot know from its training — who it works for, in
 * which project and process, and what time it is (the arthur recipe answers "the time" with one
 * quick tool call). Both read only the invocation context and the clock.
 */
import { objectSchema } from './json-schema';
import { json, projectNameOf, type BuiltinTool, type ProjectNames } from './tool-support';

export interface ContextToolDeps {
  readonly identity: ProjectNames;
  /** The clock (tests pass a fixed one). */
  readonly now?: () => Date;
}

export function contextTools(deps: ContextToolDeps): BuiltinTool[] {
  const now = deps.now ?? (() => new Date());
  const whoami: BuiltinTool = {
    name: 'whoami',
    labels: ['read', 'context'],
    description:
      'Who you work for and where: the user (login and role), the tenant, the project, and this process (name, recipe, engine). ' +
      'Returns JSON { user: { login, role }, tenant, project, process: { name, recipe, engine } }.',
    parameters: objectSchema({}),
    async invoke(_args, ctx) {
      const { user, tenant } = ctx.principal;
      return json({
        user: { login: user.login, role: user.role }, tenant: tenant.name, project: await projectNameOf(deps.identity, ctx),
        process: { name: ctx.process.name, recipe: ctx.process.recipeName, engine: ctx.process.engine },
      });
    },
  };
  const currentTime: BuiltinTool = {
    name: 'current_time',
    labels: ['read', 'context'],
    description:
      'The current date and time of the server clock, in UTC. Returns JSON { iso (ISO 8601), date (YYYY-MM-DD), weekday, unixMs }. ' +
      'Call it whenever an answer depends on today\'s date or the time.',
    parameters: objectSchema({}),
    async invoke() {
      const at = now();
      return json({
        iso: at.toISOString(), date: at.toISOString().slice(0, 10),
        weekday: at.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' }), unixMs: at.getTime(),
      });
    },
  };
  return [whoami, currentTime];
}
