/**
 * Turns what came back from a script run into a value or a ScriptError: the guest's tagged reply
 * (script-bootstrap.ts) and isolated-vm's own rejections (timeout, memory limit, disposal, an
 * unhandled guest rejection). Only strings the guest produced, or isolated-vm copied, are read here;
 * nothing is called on a guest object.
 */
import { ScriptError, type JsonValue } from '../domain/scripting/script-runner';
import type { GuestFailure } from './script-bootstrap';
import type { HostFailure } from './script-bindings';
import { capText, jsonDepthExceeds } from './script-json';

export interface OutcomeContext {
  readonly filename: string;
  /** The name the guest's stack frames carry (the sanitised sourceURL). */
  readonly sourceUrl: string;
  readonly timeoutMs: number;
  /** The guest's own running-time limit, when it is below the wall clock. */
  readonly cpuTimeoutMs?: number;
  readonly memoryLimitMb: number;
  readonly maxResultChars: number;
  readonly maxDepth: number;
  readonly maxHostCalls?: number;
  readonly lastHostFailure: HostFailure | null;
}

export function decodeReply(reply: unknown, ctx: OutcomeContext): JsonValue | ScriptError {
  const malformed = new ScriptError('GUEST', `${ctx.filename}: the sandbox returned a malformed reply`);
  if (typeof reply !== 'string' || (reply[0] !== 'v' && reply[0] !== 'e')) return malformed;
  const body = reply.slice(1);
  if (reply[0] === 'v' && jsonDepthExceeds(body, ctx.maxDepth)) {
    return new ScriptError('MEMORY', `${ctx.filename}: the result is nested deeper than ${ctx.maxDepth} levels`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return malformed;
  }
  if (reply[0] === 'v') return parsed as JsonValue;
  return typeof parsed === 'object' && parsed !== null ? guestFailure(parsed as GuestFailure, ctx) : malformed;
}

function guestFailure(failure: GuestFailure, ctx: OutcomeContext): ScriptError {
  if (failure.kind === 'RESULT_SIZE') {
    return new ScriptError('MEMORY', `${ctx.filename}: the result is ${String(failure.size)} characters of JSON, over the limit of ${ctx.maxResultChars}`);
  }
  const line = lineOf(String(failure.stack), ctx.sourceUrl);
  const where = line === null ? ` (${ctx.filename})` : ` (${ctx.filename}:${line})`;
  const host = ctx.lastHostFailure;
  if (failure.kind === 'HOST' && host?.kind === 'HOST') {
    return new ScriptError('HOST', capText(`${host.label} failed: ${host.message}${where}`), line);
  }
  if (failure.kind === 'OUTPUT') return new ScriptError('MEMORY', capText(`${String(failure.message)}${where}`), line);
  return new ScriptError('GUEST', capText(`${String(failure.name)}: ${String(failure.message)}${where}`), line);
}

/** The first guest line of the script in a stack trace (`at eval (skills/x/y.js:12:5)`). */
export function lineOf(stack: string, sourceUrl: string): number | null {
  const at = stack.indexOf(`${sourceUrl}:`);
  if (at < 0) return null;
  const match = /^(\d+)/.exec(stack.slice(at + sourceUrl.length + 1));
  return match ? Number(match[1]) : null;
}

/** A syntax error's location as isolated-vm's compiler reports it: `message [file:line:col]`. */
export function syntaxLine(message: string, sourceUrl: string): number | null {
  return lineOf(message, sourceUrl);
}

export interface RejectionState {
  readonly timedOut: boolean;
  /** The compute budget (guest time plus time in non-waiting bindings) ran out. */
  readonly computeSpent?: boolean;
  /** The run made more `vance.*` calls than one run may. */
  readonly hostCallsSpent?: boolean;
  readonly isolateDisposed: boolean;
  readonly sandboxDisposed: boolean;
}

/** isolated-vm rejected the call: the run stopped outside the guest's own try/catch. */
export function rejection(error: unknown, state: RejectionState, ctx: OutcomeContext): ScriptError {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  if (state.timedOut) return new ScriptError('TIMEOUT', `${ctx.filename}: the script ran longer than ${ctx.timeoutMs} ms`);
  if (state.hostCallsSpent) {
    return new ScriptError('TIMEOUT', `${ctx.filename}: the script made more than ${ctx.maxHostCalls} calls to vance.* (the limit of one run)`);
  }
  if (state.computeSpent || /timed out/i.test(message)) {
    return new ScriptError('TIMEOUT', `${ctx.filename}: the script computed longer than ${ctx.cpuTimeoutMs ?? ctx.timeoutMs} ms`);
  }
  if (state.sandboxDisposed) return new ScriptError('HOST', `${ctx.filename}: the script sandbox was disposed during the run`);
  if (/memory limit/i.test(message) || state.isolateDisposed) {
    return new ScriptError('MEMORY', `${ctx.filename}: the script needed more than ${ctx.memoryLimitMb} MB`);
  }
  // What the guest's own try/catch cannot see: mostly an unhandled rejection (isolated-vm fails the
  // call with it), e.g. `import('fs')`, which isolated-vm rejects with "Not supported".
  const name = error instanceof Error ? error.name : 'Uncaught';
  return new ScriptError('GUEST', capText(`${name}: ${message || 'a non-Error value'} (${ctx.filename}: uncaught outside the script's code, e.g. an unhandled promise rejection)`));
}
