/**
 * Client (FOOT) tools (seed 004 §6.2, seed 000 §13.5): tools a connected client offers to the turns of
 * its session, and the calls a turn routes to that client. A registration lasts while the client is
 * subscribed to its calls; `@label` selectors in recipes resolve against it per turn.
 */

/** One tool as the client registered it; labels lower-cased without '@'. */
export interface ClientToolSpec {
  readonly name: string;
  readonly description: string;
  readonly labels: readonly string[];
  /** JSON schema of type object (checked by the client; the server only checks the shape). */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Offered without its schema unless a recipe names it (seed 004 §6.2, a pack's `defaultDeferred`). */
  readonly deferred: boolean;
}

export interface ClientToolRegistration {
  readonly sessionId: string;
  readonly tools: readonly ClientToolSpec[];
  readonly registeredAt: Date;
}

export type ClientToolCallKind = 'TOOL' | 'SCRIPT';

/** A FOOT skill script sent to the client for evaluation with its local bindings. */
export interface ClientScript {
  readonly skill: string;
  readonly name: string;
  readonly source: string;
}

export interface ClientToolCall {
  readonly callId: string;
  readonly tenantId: string;
  readonly sessionId: string;
  /** The session owner: only they may answer. */
  readonly userId: string;
  readonly processId: string;
  readonly turnId: string | null;
  readonly kind: ClientToolCallKind;
  /** The client tool name, or the script's tool name (`skill_<skill>__<script>`). */
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly script: ClientScript | null;
  readonly deadline: Date;
}

export type NewClientToolCall = Omit<ClientToolCall, 'callId'>;

/** The client's answer: a JSON result, or an error message the model sees. */
export type ClientToolAnswer = { readonly result: unknown } | { readonly error: string };

export type StoredCallStatus = 'PENDING' | 'ANSWERED' | 'EXPIRED';

export interface StoredClientToolCall extends ClientToolCall {
  readonly status: StoredCallStatus;
  readonly answer: ClientToolAnswer | null;
}
