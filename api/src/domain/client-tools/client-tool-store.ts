import type { ClientToolAnswer, ClientToolCall, ClientToolRegistration, ClientToolSpec, NewClientToolCall, StoredClientToolCall } from './client-tool';

/**
 * Persistence of client tool registrations (on the session) and of routed calls, so that any
 * instance can resolve a session's tools per turn and check who may answer a call.
 */
export interface ClientToolStore {
  /** Replaces the session's registration; `null` removes it. Returns the registration time (null when removed). */
  setRegistration(tenantId: string, sessionId: string, tools: readonly ClientToolSpec[] | null): Promise<Date | null>;
  findRegistration(tenantId: string, sessionId: string): Promise<ClientToolRegistration | null>;
  createCall(call: NewClientToolCall): Promise<ClientToolCall>;
  findCall(tenantId: string, callId: string): Promise<StoredClientToolCall | null>;
  /** The session's calls still PENDING before their deadline whose turn still runs, oldest first (a client that reconnects gets them). */
  listPendingCalls(tenantId: string, sessionId: string): Promise<ClientToolCall[]>;
  /** Records the answer if the call is still PENDING and its turn runs; false when it was answered or expired before, or its turn ended. */
  answerCall(tenantId: string, callId: string, answer: ClientToolAnswer): Promise<boolean>;
  /** Marks a PENDING call EXPIRED; false when it was answered first. */
  expireCall(tenantId: string, callId: string): Promise<boolean>;
}
