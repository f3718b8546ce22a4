import type { Principal } from '../identity/principal';
import type { Process } from '../processes/process';
import type { ToolInvocationContext, ToolResult, TurnToolContext } from '../tools/server-tool';
import type { TurnComposition } from './turn-composer';
import type { TurnToolbox } from './turn-toolbox';

/** A tool call of a turn: its name, arguments and nesting depth (0: the model's call; n: a script's `vance.tool`). */
export type TurnDispatch = (name: string, args: Readonly<Record<string, unknown>>, depth: number) => Promise<ToolResult>;

/**
 * One tool call of the turn at a nesting depth: the pool check, then the turn's own tools (scripts,
 * client tools) or the server registry. `onCall` hears every call that passed the pool check (the
 * runner: whether the reply ran anything that may have changed the process).
 */
export function turnDispatcher(
  toolbox: TurnToolbox, process: Process, turnId: string, composition: TurnComposition, principal: Principal, allowed: ReadonlySet<string>,
  emit: (type: 'ScriptLog', payload: Readonly<Record<string, unknown>>) => Promise<void>,
  onCall?: () => void,
): TurnDispatch {
  const dispatchAt: TurnDispatch = async (name, args, depth) => {
    if (!allowed.has(name)) return { content: `Tool '${name}' is not allowed in this turn.`, isError: true };
    onCall?.();
    const turn: TurnToolContext = {
      turnId, depth, callTool: dispatchAt,
      log: (source, level, message) => emit('ScriptLog', { source, level, message }),
    };
    const ctx: ToolInvocationContext = { principal, process, scope: composition.scope, turn };
    return composition.turnTools.has(name)
      ? composition.turnTools.dispatch(name, args, allowed, ctx)
      : toolbox.dispatch(name, args, allowed, ctx);
  };
  return dispatchAt;
}
