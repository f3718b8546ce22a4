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
  /** The running turn, when the call comes from one (scripts need it for `vance.tool` and `vance.log`). */
  readonly turn?: TurnToolContext;
}

/** What a tool call knows of the running turn (seed 000 §13.4). */
export interface TurnToolContext {
  readonly turnId: string;
  /** 0 for a call the model made; n for a call a script made n levels deep (`vance.tool`). */
  readonly depth: number;
  /** Runs another tool of this turn's pool at `depth` (the turn's checks apply: pool, schema, caps). */
  callTool(name: string, args: Readonly<Record<string, unknown>>, depth: number): Promise<ToolResult>;
  /** A `vance.log` line, as a ScriptLog turn event. */
  log(source: string, level: string, message: string): Promise<void>;
}

/** What the model sees as the tool's answer; `isError` marks a refusal or failure the turn goes on from. */
export interface ToolResult {
  readonly content: string;
  readonly isError?: boolean;
  /** Set by the turn when it replaced characters the database cannot store (turns/storable-output.ts). */
  readonly replaced?: number;
}

/** A built-in tool: a descriptor with labels, a JSON schema, and an implementation. */
export interface ServerTool extends ToolDescriptor {
  readonly description: string;
  /** JSON schema (type: object) of the arguments. */
  readonly parameters: Readonly<Record<string, unknown>>;
  invoke(args: Readonly<Record<string, unknown>>, ctx: ToolInvocationContext): Promise<ToolResult>;
}
