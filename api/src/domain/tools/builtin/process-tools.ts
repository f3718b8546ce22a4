/**
 * `process_spawn` / `process_status` / `process_list` (seed 004 §8, §9): the coordinator delegates work to a worker
 * process. A spawned process is a CHILD of the calling process, in the same session and project,
 * owned by the same user; the goal is queued as its first message (which schedules its first turn).
 * `process_status` and `process_list` only answer for processes of the caller's own session (no probing elsewhere).
 */
import type { RecipeLoader } from '../../recipes/recipe-loader';
import type { Process } from '../../processes/process';
import type { ProcessService } from '../../processes/process-service';
import { MAX_TITLE_LENGTH } from '../../processes/process-spawner';
import type { ToolInvocationContext } from '../server-tool';
import { objectSchema } from './json-schema';
import { RECIPE_NAME_SCHEMA } from './recipe-tools';
import { json, optionalStr, projectNameOf, refuse, str, type BuiltinTool, type ProjectNames } from './tool-support';

/** The part of ProcessService the process tools use. */
export type ProcessToolService = Pick<ProcessService, 'spawn' | 'list' | 'session' | 'queue' | 'pending'>;

export interface ProcessToolDeps {
  readonly processes: ProcessToolService;
  readonly recipes: RecipeLoader;
  readonly identity: ProjectNames;
}

/** The size of a goal (ProcessService.queue refuses more). */
export const MAX_GOAL_LENGTH = 200_000;

function describe(process: Process, pending: number | null): Record<string, unknown> {
  return {
    id: process.id,
    name: process.name,
    status: process.status,
    recipe: process.recipeName,
    engine: process.engine,
    parentProcessId: process.parentProcessId,
    title: process.title,
    turnScheduled: process.turnRequestedAt !== null,
    ...(pending === null ? {} : { pendingMessages: pending }),
    createdAt: process.createdAt.toISOString(),
    updatedAt: process.updatedAt.toISOString(),
  };
}

async function sessionName(deps: ProcessToolDeps, ctx: ToolInvocationContext): Promise<string | null> {
  return (await deps.processes.session(ctx.principal, ctx.process.sessionId))?.name ?? null;
}

export function processTools(deps: ProcessToolDeps): BuiltinTool[] {
  const spawn: BuiltinTool = {
    name: 'process_spawn',
    labels: ['side-effect', 'executive', 'process'],
    description:
      'Start a worker process from a recipe to carry out a task, as a child of this process in the same session. ' +
      'Give the recipe name (see recipe_list) and the goal: a self-contained instruction, since the worker sees nothing of this ' +
      'conversation. Optionally a process name (unique in the session) and parameter overrides. Returns JSON with the new ' +
      'process (id, name, status); the worker runs on its own, its result arrives later — check it with process_status.',
    parameters: objectSchema({
      recipe: RECIPE_NAME_SCHEMA,
      goal: { type: 'string', minLength: 1, maxLength: MAX_GOAL_LENGTH, description: 'The task for the worker, self-contained' },
      name: { type: 'string', minLength: 1, maxLength: 63, description: 'Optional process name: letters, digits, ".", "_", "-"' },
      title: { type: 'string', maxLength: MAX_TITLE_LENGTH, description: 'Optional short title of the worker, for people (e.g. "Review of the parser")' },
      params: { type: 'object', description: 'Optional parameter overrides for the recipe (ignored by locked recipes)' },
    }, ['recipe', 'goal']),
    async invoke(args, ctx) {
      const recipeName = str(args, 'recipe').trim();
      const goal = str(args, 'goal');
      if (goal.trim() === '') return refuse('The goal is empty: describe the task for the worker.');
      const loaded = await deps.recipes.find(ctx.scope, ctx.principal.tenant.name, recipeName);
      if (!loaded) return refuse(`Recipe '${recipeName}' not found. Call recipe_list for the recipes you can spawn.`);
      if (loaded.recipe.protected) return refuse(`Recipe '${recipeName}' is protected: it starts sessions and is not spawned as a worker.`);
      const params = args['params'];
      const child = await deps.processes.spawn(ctx.principal, {
        project: await projectNameOf(deps.identity, ctx),
        session: await sessionName(deps, ctx),
        name: optionalStr(args, 'name'),
        recipe: recipeName,
        engine: null,
        params: params && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : null,
        profile: ctx.process.connectionProfile,
        parentProcessId: ctx.process.id,
        title: optionalStr(args, 'title'),
        goal,
      });
      const { process } = await deps.processes.queue(child, [{ sender: 'PROCESS', senderName: ctx.process.name, content: goal }], `Spawned by '${ctx.process.name}' with a goal`);
      return json({ spawned: describe(process, null) });
    },
  };

  const status: BuiltinTool = {
    name: 'process_status',
    labels: ['read', 'process'],
    description:
      'The status of a process in this session, by id or name — typically a worker you spawned with process_spawn. ' +
      'Returns JSON { id, name, status (IDLE|CLOSED|ABANDONED), recipe, engine, parentProcessId, title, turnScheduled, pendingMessages, goal }. ' +
      'Without an argument, lists the processes you spawned.',
    parameters: objectSchema({
      process: { type: 'string', minLength: 1, maxLength: 128, description: 'Process id or name; omit to list your child processes' },
    }),
    async invoke(args, ctx) {
      const key = optionalStr(args, 'process')?.trim() ?? null;
      const project = await projectNameOf(deps.identity, ctx);
      const inSession = await deps.processes.list(ctx.principal, project, ctx.process.sessionId);
      if (key === null || key === '') {
        const children = inSession.filter((p) => p.parentProcessId === ctx.process.id);
        return json({ processes: children.map((p) => describe(p, null)), count: children.length });
      }
      const found = inSession.find((p) => p.id === key) ?? inSession.find((p) => p.name === key);
      if (!found) return refuse(`No process '${key}' in this session.`);
      const pending = await deps.processes.pending(ctx.principal, found.id);
      return json({ ...describe(found, pending.length), goal: found.goal });
    },
  };

  const list: BuiltinTool = {
    name: 'process_list',
    labels: ['read', 'process'],
    description:
      'The processes of this session: you, the workers you or others spawned, and their status. ' +
      'Returns JSON { processes: [{ id, name, status, recipe, engine, parentProcessId, title, turnScheduled }], count }, oldest first.',
    parameters: objectSchema({}),
    async invoke(_args, ctx) {
      const inSession = await deps.processes.list(ctx.principal, await projectNameOf(deps.identity, ctx), ctx.process.sessionId);
      return json({ processes: inSession.map((p) => describe(p, null)), count: inSession.length });
    },
  };
  return [spawn, status, list];
}
