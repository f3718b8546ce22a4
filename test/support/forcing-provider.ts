/**
 * The offline model for tool tests, with two additions: it records the tool names of every request
 * (what the turn offered), and a user message `force <tool> {json}` calls that tool whether it was
 * offered or not — a deferred tool after tool_describe, or a tool outside the pool, which the turn
 * must refuse. `plainly` makes a conversation containing that text answer in plain text, as a model
 * that ignores the respond convention does.
 */
import type { ModelCallRequest, ModelProvider, ModelStreamEvent } from '../../api/src/domain/llm/model-provider';
import { OfflineProvider } from '../../api/src/llm/offline-provider';

export class ForcingProvider implements ModelProvider {
  private readonly offline = new OfflineProvider();
  readonly requests: string[][] = [];

  constructor(private readonly options: { readonly plainly?: string } = {}) {}

  async *stream(request: ModelCallRequest): AsyncIterable<ModelStreamEvent> {
    this.requests.push(request.tools.map((t) => t.name));
    const last = request.messages[request.messages.length - 1];
    const forced = last?.role === 'user' ? /^force (\w+)\s*(.*)$/.exec(last.content.trim()) : null;
    if (forced) {
      yield { type: 'tool-call', call: { id: 'forced-1', name: forced[1]!, arguments: forced[2] ? JSON.parse(forced[2]) : {} } };
      yield { type: 'finish', reason: 'tool-calls', usage: { inputTokens: 1, outputTokens: 1 } };
      return;
    }
    const { plainly } = this.options;
    if (plainly !== undefined && request.messages.some((m) => m.role === 'user' && m.content.includes(plainly))) {
      yield { type: 'text-delta', text: 'Plain answer.' };
      yield { type: 'finish', reason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
      return;
    }
    yield* this.offline.stream(request);
  }
}
