/**
 * Why a document tool's call failed (issue 19). Each is a DomainError, so the tool registry turns
 * it into a tool error the turn goes on from, with this message (tool-registry.ts dispatch).
 */
import { DomainError } from '../errors';

/** A call that would send a secret to an origin it is not bound to: refused before anything is sent. */
export class SecretNotBoundError extends DomainError {
  readonly code = 'SECRET_NOT_BOUND';
  readonly category = 'FORBIDDEN';
  constructor(readonly setting: string, readonly target: string, readonly bound: readonly string[]) {
    super(
      `refused by the secret binding rule (a secret goes only to the origins it is bound to): secret setting '${setting}' ` +
      (bound.length === 0
        ? `is not bound to any origin (set '${setting}.origins' in the same layer as the secret)`
        : `is bound to ${bound.join(', ')}`) +
      `, and this call would send it to ${target}`,
    );
  }
}

/** The HTTP call did not give a usable answer: a non-2xx status, a timeout, a network failure. */
export class ToolCallFailedError extends DomainError {
  readonly code = 'TOOL_CALL_FAILED';
  readonly category = 'UNAVAILABLE';
}

/** A setting a header names has no value. */
export class ToolSettingMissingError extends DomainError {
  readonly code = 'TOOL_SETTING_MISSING';
  readonly category = 'BAD_INPUT';
  constructor(readonly setting: string, reason = 'has no value; set it in the project or tenant settings') {
    super(`the setting '${setting}' that a header of this tool names ${reason}`);
  }
}
