/**
 * Subscription results executed and serialized once per event, not once per subscriber (issue 18,
 * fan-out). graphql-js's `subscribe` executes the operation's selection set for every event of
 * every subscription: 1,000 subscribers of one turn paid 1,000 executions and 1,000 JSON encodings
 * of the same TextDelta. Here the result of an event is kept with the event's root value and shared
 * by every subscription that executes the same document with the same variables on that very root
 * value object.
 *
 * Why this cannot show one viewer another's view: a result is shared only between subscriptions
 * whose root value is the SAME object. The resolvers hand out one object per event and per view
 * (the owner's event as stored; the redacted view memoised by what decides it, prompt-visibility.ts),
 * so two viewers with different views never hold the same root object. Only fields whose results
 * read nothing of the context (who asks) may share: `SHARED_FIELDS` lists them.
 */
import { createSourceEventStream, execute, visit, type DocumentNode, type ExecutionArgs, type ExecutionResult, type VariableNode } from 'graphql';
import { isPushable } from '../domain/shared/push-iterator';
import { directNext, type NextOutlet } from './direct-next';
import { SerializedPayload } from './ws-transport';

/**
 * Subscription fields whose events are shared objects per view and whose result types resolve
 * without the context (TurnEvent: plain fields and scalars).
 */
export const SHARED_FIELDS: ReadonlySet<string> = new Set(['turnEvents']);

/**
 * The root values of a shared field: one per event object, so that every subscription given that
 * event (the same view of it) executes on the same root and shares its result.
 */
export function sharedRoots<K extends string>(field: K): <E extends object>(event: E) => Record<K, E> {
  const roots = new WeakMap<object, Record<K, object>>();
  return <E extends object>(event: E) => {
    let root = roots.get(event);
    if (root === undefined) roots.set(event, (root = { [field]: event } as unknown as Record<K, object>));
    return root as Record<K, E>;
  };
}

type Result = ExecutionResult | Promise<ExecutionResult>;

export class SharedSubscriptionResults {
  /** Executions of shared events (tests count them: N identical subscribers, one execution per event). */
  executions = 0;
  /** JSON encodings of shared results (likewise). */
  serializations = 0;

  /** Per root value: its results by (document, operation, variables). Gone with the event. */
  private readonly results = new WeakMap<object, Map<string, Result>>();
  private readonly serialized = new WeakMap<ExecutionResult, SerializedPayload>();
  private readonly sharedResults = new WeakSet<ExecutionResult>();
  private readonly documentIds = new WeakMap<DocumentNode, number>();
  private nextDocumentId = 1;

  /**
   * @param outletOf where a subscription's shared results can be written straight to its socket
   *   (direct-next.ts); without one, every result goes through the iterator graphql-ws reads.
   */
  constructor(private readonly outletOf: (args: ExecutionArgs) => NextOutlet | undefined = () => undefined) {}

  /** graphql-ws's `subscribe`: graphql-js's, with the per-event execution shared where allowed. */
  readonly subscribe = async (args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> => {
    const source = await createSourceEventStream(args);
    if (!isAsyncIterable(source)) return source;
    const key = this.sharingKey(args);
    const resultOf = (root: unknown): Result =>
      key !== null && typeof root === 'object' && root !== null ? this.shared(args, root, key) : execute({ ...args, rootValue: root });
    const events = source[Symbol.asyncIterator]();
    const outlet = key !== null ? this.outletOf(args) : undefined;
    if (outlet && isPushable(events)) return directNext(events, resultOf, (result) => this.serializedOf(result), outlet);
    return mapped(events, resultOf);
  };

  /** The payload of a graphql-ws `next` message for a shared result, encoded once; null for others. */
  serializedOf(result: ExecutionResult): SerializedPayload | null {
    let payload = this.serialized.get(result);
    if (payload === undefined) {
      if (result.errors || !this.isShared(result)) return null;
      this.serializations++;
      payload = new SerializedPayload(JSON.stringify(result));
      this.serialized.set(result, payload);
    }
    return payload;
  }

  private isShared(result: ExecutionResult): boolean {
    return this.sharedResults.has(result);
  }

  /** null: not shareable (a field outside SHARED_FIELDS, or more than one root field). */
  private sharingKey(args: ExecutionArgs): string | null {
    const operation = args.document.definitions.find((d) => d.kind === 'OperationDefinition' && (args.operationName == null || d.name?.value === args.operationName));
    if (operation?.kind !== 'OperationDefinition' || operation.operation !== 'subscription') return null;
    const [field, ...more] = operation.selectionSet.selections;
    if (more.length > 0 || field?.kind !== 'Field' || !SHARED_FIELDS.has(field.name.value)) return null;
    let id = this.documentIds.get(args.document);
    if (id === undefined) this.documentIds.set(args.document, (id = this.nextDocumentId++));
    // The root field's arguments chose the stream (processId, afterEventId), not what an event shows:
    // only the variables its directives, its selection and the fragments use are part of the key.
    const used = new Set<string>();
    const collect = { Variable: (node: VariableNode) => void used.add(node.name.value) };
    for (const directive of field.directives ?? []) visit(directive, collect);
    if (field.selectionSet) visit(field.selectionSet, collect);
    for (const definition of args.document.definitions) if (definition.kind === 'FragmentDefinition') visit(definition, collect);
    const values = args.variableValues ?? {};
    const shown = [...used].sort().map((name) => [name, values[name]]);
    return `${id}\n${args.operationName ?? ''}\n${JSON.stringify(shown)}`;
  }

  private shared(args: ExecutionArgs, root: object, key: string): Result {
    let byKey = this.results.get(root);
    if (byKey === undefined) this.results.set(root, (byKey = new Map()));
    let result = byKey.get(key);
    if (result === undefined) {
      this.executions++;
      result = execute({ ...args, rootValue: root });
      const remember = (r: ExecutionResult) => {
        this.sharedResults.add(r);
        return r;
      };
      result = result instanceof Promise ? result.then(remember) : remember(result);
      byKey.set(key, result);
    }
    return result;
  }
}

function isAsyncIterable<T>(value: AsyncIterable<T> | ExecutionResult): value is AsyncIterable<T> {
  return typeof (value as AsyncIterable<T>)[Symbol.asyncIterator] === 'function';
}

/**
 * `source` mapped, awaiting each result. Not an async generator: its `return()` would queue behind a
 * `next()` waiting for an event that may never come, and the source (a bus subscription) would stay.
 */
function mapped(source: AsyncIterator<unknown>, map: (root: unknown) => Result): AsyncIterableIterator<ExecutionResult> {
  const close = async (): Promise<IteratorResult<ExecutionResult>> => {
    await source.return?.();
    return { value: undefined, done: true };
  };
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    next: async () => {
      const r = await source.next();
      return r.done ? { value: undefined, done: true } : { value: await map(r.value), done: false };
    },
    return: close,
    throw: async (error: unknown) => {
      await close();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
