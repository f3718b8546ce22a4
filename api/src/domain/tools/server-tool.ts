import type { CascadeScope } from '../cascade/scope';
import type { Principal } from '../identity/principal';
import type { Process } from '../processes/process';
import type { ToolDescriptor } from './tool-descriptor';

/** Who calls a tool and for which process: the process owner's identity and cascade scope. */
export interface ToolInvocationContext {
  readonly principal: Principal;
  readonly process: Process;
  readonly scope: CascadeScope;
  readonly signal?: AbortSignal;
}

/** What the model sees as the tool's answer; `isError` marks a refusal or failure the turn goes on from. */
export interface ToolResult {
  readonly content: string;
  readonly isError?: boolean;
}

/** A built-in tool: a descriptor with labels, a JSON schema, and an implementation. */
export interface ServerTool extends ToolDescriptor {
  readonly description: string;
  /** JSON schema (type: object) of the arguments. */
  readonly parameters: Readonly<Record<string, unknown>>;
  invoke(args: Readonly<Record<string, unknown>>, ctx: ToolInvocationContext): Promise<ToolResult>;
}
