/**
 * Routes tool calls of a turn to the client of the process's session, and back (seed 004 §6.2,
 * seed 000 §13.5, issue 6). A client registers its tools (`registerClientTools`), listens on
 * `clientToolCalls(sessionId)` and answers with `submitClientToolResult`. Calls are rows (any instance
 * can check who may answer) announced on the bus by id only (NOTIFY payloads are small); the waiting
 * turn wakes on the answer's announcement and reads the answer from the row.
 *
 * Nothing here throws at a turn: no client, an unregistered tool and no answer in time are tool
 * errors the turn goes on from. The registration lasts while the client is subscribed on this
 * instance: when its last subscription ends, the registration is removed.
 */
import { DomainError, InvalidInputError, NotFoundError, type ErrorCategory } from '../errors';
import type { EventBus, Unsubscribe } from '../events/event-bus';
import type { Principal } from '../identity/principal';
import type { ProcessStore } from '../processes/process-store';
import { PushIterator } from '../shared/push-iterator';
import { selectorProblem } from '../tools/select';
import type { ClientToolAnswer, ClientToolCall, ClientToolRegistration, ClientToolSpec, NewClientToolCall } from './client-tool';
import type { ClientToolStore } from './client-tool-store';

export const CLIENT_TOOL_CALLS_TOPIC = 'vance.client-tool-calls';
export const CLIENT_TOOL_RESULTS_TOPIC = 'vance.client-tool-results';

interface CallNotice { readonly tenantId: string; readonly sessionId: string; readonly callId: string }
interface ResultNotice { readonly tenantId: string; readonly callId: string }

export const MAX_CLIENT_TOOLS = 500;
const MAX_DESCRIPTION_CHARS = 4_000;
const MAX_SCHEMA_CHARS = 64_000;
const MAX_ANSWER_CHARS = 1_000_000;
/** Script tools own this prefix (seed 000 §13.2); a client tool may not take it. */
const RESERVED_PREFIX = 'skill_';

export interface ClientToolServiceDeps {
  readonly store: ClientToolStore;
  readonly sessions: Pick<ProcessStore, 'findSession'>;
  readonly bus: EventBus;
  /** How long a turn waits for the client's answer. Default 30 s. */
  readonly timeoutMs?: number;
  /**
   * How often a waiting call also looks in the store for its answer (default 1 s): the notice that
   * an answer came can be lost (a NOTIFY that failed after the answer committed), and the turn must
   * not then wait until its timeout.
   */
  readonly recheckMs?: number;
  /** Told of a notice that could not be published after its write committed. */
  readonly onLost?: (err: unknown, context: string) => void;
}

export interface ClientToolInput {
  readonly name: string;
  readonly description?: string | null;
  readonly labels?: readonly string[] | null;
  readonly parameters?: unknown;
  readonly deferred?: boolean | null;
}

/** What the model sees for a routed call. */
export interface ClientCallOutcome {
  readonly content: string;
  readonly isError: boolean;
}

class ClientToolCallError extends DomainError {
  constructor(readonly code: string, readonly category: ErrorCategory, message: string) {
    super(message);
  }
}

export class ClientToolService {
  private readonly waiting = new Map<string, () => void>();
  private readonly presence = new Map<string, number>();
  private readonly unsubscribe: Unsubscribe;
  readonly timeoutMs: number;

  constructor(private readonly deps: ClientToolServiceDeps) {
    this.timeoutMs = deps.timeoutMs ?? 30_000;
    this.unsubscribe = deps.bus.subscribe<ResultNotice>(CLIENT_TOOL_RESULTS_TOPIC, (n) => this.waiting.get(n.callId)?.());
  }

  close(): void {
    this.unsubscribe();
  }

  async register(principal: Principal, sessionId: string, input: readonly ClientToolInput[]): Promise<ClientToolRegistration> {
    await this.ownSession(principal, sessionId);
    const tools = validateTools(input);
    const registeredAt = await this.deps.store.setRegistration(principal.tenant.id, sessionId, tools);
    return { sessionId, tools, registeredAt: registeredAt ?? new Date() };
  }

  async registration(principal: Principal, sessionId: string): Promise<ClientToolRegistration | null> {
    await this.ownSession(principal, sessionId);
    return this.deps.store.findRegistration(principal.tenant.id, sessionId);
  }

  /** The tools a turn of a process in this session may be offered (none without a registration). */
  async toolsOf(tenantId: string, sessionId: string): Promise<readonly ClientToolSpec[]> {
    return (await this.deps.store.findRegistration(tenantId, sessionId))?.tools ?? [];
  }

  /** The calls routed to the caller's session, until the client stops listening. */
  async subscribe(principal: Principal, sessionId: string): Promise<AsyncIterableIterator<ClientToolCall>> {
    await this.ownSession(principal, sessionId);
    const tenantId = principal.tenant.id;
    const key = `${tenantId}/${sessionId}`;
    const stream = new PushIterator<ClientToolCall>(1_000);
    const delivered = new Set<string>();
    const deliver = (call: ClientToolCall): void => {
      if (delivered.has(call.callId)) return;
      delivered.add(call.callId);
      stream.push(call);
    };
    stream.onClose(this.deps.bus.subscribe<CallNotice>(CLIENT_TOOL_CALLS_TOPIC, (n) => {
      if (n.tenantId !== tenantId || n.sessionId !== sessionId) return;
      void this.deps.store.findCall(tenantId, n.callId).then((call) => {
        if (call && call.status === 'PENDING') deliver(call);
      }, () => undefined);
    }));
    // A client that reconnects gets the calls still waiting for an answer (after listening, so none is missed).
    for (const call of await this.deps.store.listPendingCalls(tenantId, sessionId)) deliver(call);
    this.presence.set(key, (this.presence.get(key) ?? 0) + 1);
    stream.onClose(() => {
      const left = (this.presence.get(key) ?? 1) - 1;
      if (left > 0) {
        this.presence.set(key, left);
        return;
      }
      this.presence.delete(key);
      void this.deps.store.setRegistration(tenantId, sessionId, null).catch(() => undefined);
    });
    return stream;
  }

  /**
   * Sends a call to the session's client and waits for its answer. A TOOL call needs the tool in the
   * registration; a SCRIPT call (FOOT script) only needs a registration (a connected client).
   */
  async call(request: Omit<NewClientToolCall, 'deadline'>, timeoutMs = this.timeoutMs): Promise<ClientCallOutcome> {
    const { store, bus } = this.deps;
    const registration = await store.findRegistration(request.tenantId, request.sessionId);
    if (!registration) {
      return fail(`No client is connected to this session, so '${request.tool}' cannot run on the client now. Continue without it or ask the user to connect their client.`);
    }
    if (request.kind === 'TOOL' && !registration.tools.some((t) => t.name === request.tool)) {
      return fail(`The client of this session has no tool '${request.tool}' registered any more.`);
    }
    const call = await store.createCall({ ...request, deadline: new Date(Date.now() + timeoutMs) });
    let wake: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (wake = resolve));
    this.waiting.set(call.callId, wake);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const recheck = setInterval(() => {
      store.findCall(call.tenantId, call.callId).then((c) => (c?.answer ? wake() : undefined), () => undefined);
    }, this.deps.recheckMs ?? 1_000);
    recheck.unref();
    try {
      await bus.publish<CallNotice>(CLIENT_TOOL_CALLS_TOPIC, { tenantId: call.tenantId, sessionId: call.sessionId, callId: call.callId });
      const first = await Promise.race([answered.then(() => 'answered' as const), timedOut]);
      if (first === 'timeout' && (await store.expireCall(call.tenantId, call.callId))) {
        return fail(`The client did not answer '${request.tool}' within ${timeoutMs} ms; the call was abandoned.`);
      }
      const stored = await store.findCall(call.tenantId, call.callId);
      return stored?.answer ? outcome(request.tool, stored.answer) : fail(`The answer of the client to '${request.tool}' was lost.`);
    } finally {
      clearTimeout(timer);
      clearInterval(recheck);
      this.waiting.delete(call.callId);
    }
  }

  /** The client's answer to one call; only the client of the call's session may give it, once. */
  async submit(principal: Principal, sessionId: string, callId: string, answer: ClientToolAnswer): Promise<true> {
    await this.ownSession(principal, sessionId);
    const tenantId = principal.tenant.id;
    const call = await this.deps.store.findCall(tenantId, callId);
    if (!call || call.userId !== principal.user.id) throw new NotFoundError('Client tool call', callId);
    if (call.sessionId !== sessionId) {
      throw new ClientToolCallError('CLIENT_TOOL_CALL_NOT_OWNED', 'FORBIDDEN', `Client tool call '${callId}' was sent to another session; only the client of that session may answer it.`);
    }
    checkAnswer(answer);
    if (!(await this.deps.store.answerCall(tenantId, callId, answer))) {
      throw new ClientToolCallError('CLIENT_TOOL_CALL_CLOSED', 'CONFLICT', `Client tool call '${callId}' was already answered, has expired, or its turn no longer runs.`);
    }
    // Committed: the answer is not reported as failed because its notice was not published (issue 14);
    // the waiting turn finds it in the store at its next recheck.
    await this.deps.bus.publish<ResultNotice>(CLIENT_TOOL_RESULTS_TOPIC, { tenantId, callId })
      .catch((err: unknown) => this.deps.onLost?.(err, `answer notice of client tool call ${callId} not published`));
    return true;
  }

  private async ownSession(principal: Principal, sessionId: string): Promise<void> {
    const session = await this.deps.sessions.findSession(principal.tenant.id, sessionId);
    // Another user's session is invisible, as another tenant's is (DESIGN §6: no oracle).
    if (!session || session.userId !== principal.user.id) throw new NotFoundError('Session', sessionId);
  }
}

function fail(content: string): ClientCallOutcome {
  return { content, isError: true };
}

function outcome(tool: string, answer: ClientToolAnswer): ClientCallOutcome {
  if ('error' in answer) return { content: `Client tool '${tool}' failed: ${answer.error}`, isError: true };
  const { result } = answer;
  return { content: typeof result === 'string' ? result : JSON.stringify(result ?? null), isError: false };
}

function checkAnswer(answer: ClientToolAnswer): void {
  const size = 'error' in answer ? answer.error.length : (JSON.stringify(answer.result ?? null)?.length ?? 0);
  if (size > MAX_ANSWER_CHARS) {
    throw new InvalidInputError('CLIENT_TOOL_RESULT_TOO_LARGE', `The answer is ${size} characters; the limit is ${MAX_ANSWER_CHARS}.`, 'error' in answer ? 'error' : 'result');
  }
}

function validateTools(input: readonly ClientToolInput[]): ClientToolSpec[] {
  if (input.length > MAX_CLIENT_TOOLS) {
    throw new InvalidInputError('INVALID_CLIENT_TOOLS', `A client may register at most ${MAX_CLIENT_TOOLS} tools, got ${input.length}.`, 'tools');
  }
  const seen = new Set<string>();
  return input.map((tool, index) => {
    const at = `tools[${index}]`;
    const name = tool.name.trim();
    const problem = name.includes('*') || name.startsWith('@') ? `'${name}' is not a tool name` : selectorProblem(name);
    if (problem !== null) throw new InvalidInputError('INVALID_CLIENT_TOOLS', `${at}.name: ${problem}`, `${at}.name`);
    if (name.length > 128) throw new InvalidInputError('INVALID_CLIENT_TOOLS', `${at}.name: at most 128 characters`, `${at}.name`);
    if (name.startsWith(RESERVED_PREFIX)) {
      throw new InvalidInputError('INVALID_CLIENT_TOOLS', `${at}.name: the prefix '${RESERVED_PREFIX}' is reserved for skill scripts`, `${at}.name`);
    }
    if (seen.has(name)) throw new InvalidInputError('INVALID_CLIENT_TOOLS', `${at}.name: '${name}' is registered twice`, `${at}.name`);
    seen.add(name);
    const description = (tool.description ?? '').trim();
    if (description.length > MAX_DESCRIPTION_CHARS) {
      throw new InvalidInputError('INVALID_CLIENT_TOOLS', `${at}.description: at most ${MAX_DESCRIPTION_CHARS} characters`, `${at}.description`);
    }
    const labels = [...new Set((tool.labels ?? []).map((l) => l.trim().replace(/^@/, '').toLowerCase()))];
    for (const label of labels) {
      if (selectorProblem(`@${label}`) !== null) throw new InvalidInputError('INVALID_CLIENT_TOOLS', `${at}.labels: '${label}' is not a label`, `${at}.labels`);
    }
    const parameters = tool.parameters ?? { type: 'object', properties: {}, additionalProperties: true };
    if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters) || (parameters as Record<string, unknown>)['type'] !== 'object') {
      throw new InvalidInputError('INVALID_CLIENT_TOOLS', `${at}.parameters: a JSON schema of type object is required`, `${at}.parameters`);
    }
    if (JSON.stringify(parameters).length > MAX_SCHEMA_CHARS) {
      throw new InvalidInputError('INVALID_CLIENT_TOOLS', `${at}.parameters: at most ${MAX_SCHEMA_CHARS} characters of JSON`, `${at}.parameters`);
    }
    return { name, description: description || `Client tool ${name}`, labels, parameters: parameters as Record<string, unknown>, deferred: tool.deferred === true };
  });
}
