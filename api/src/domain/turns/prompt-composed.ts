/**
 * What the turn events say about the request (issue 15): PromptComposed carries the first model
 * call's request as built by model-request.ts — system messages, tools with schemas and labels,
 * sampling, model — beside the older summary fields; TurnFinished puts the provider's own count of
 * the first call's input tokens next to the estimate the context budget was fitted with.
 */
import type { FittedContext } from '../activation';
import type { ModelStreamEvent } from '../llm/model-provider';
import { systemOf, type ModelRequest } from './model-request';
import type { TurnComposition } from './turn-composer';
import type { PoolTool } from '../recipes/tool-pool';

/** The request as a PromptComposed payload: the history is the chat log, so only its size rides along. */
export function requestSummary(request: ModelRequest): Record<string, unknown> {
  return {
    provider: request.provider, model: request.model,
    system: systemOf(request), historyMessages: request.messages.length - request.systemMessages,
    tools: request.tools, sampling: request.sampling, droppedSampling: request.droppedSampling,
  };
}

export function promptComposedPayload(composition: TurnComposition, request: ModelRequest, fitted: FittedContext): Record<string, unknown> {
  return {
    model: request.model, provider: request.provider, tier: composition.tier,
    sections: composition.sections.map((s) => ({ kind: s.kind, chars: s.text.length, text: s.text })),
    // The names of the tools the model is offered (before issue 15: the pool, with names nothing implements).
    tools: request.tools.map((t) => t.name), deferredTools: composition.pool.deferred,
    toolDetails: composition.pool.details.map(withoutOrigin), unresolvedTools: composition.pool.unresolvedTools,
    // Packs that are down or refused, tool documents that do not parse (issue 19): the turn went on without them.
    toolProblems: composition.toolProblems,
    tokens: fitted.split, budget: fitted.summary, droppedHistory: fitted.dropped.length,
    catalog: composition.catalog ? { summary: composition.catalog.summary, cuts: composition.catalog.cuts } : null,
    request: requestSummary(request),
    // What the owner's USER layer contributed: others get this event redacted (prompt-visibility.ts).
    private: composition.privacy,
  };
}

/** Passes a model stream through, noting each call's reported input tokens. */
export async function* reportingUsage(events: AsyncIterable<ModelStreamEvent>, reported: number[]): AsyncIterable<ModelStreamEvent> {
  for await (const event of events) {
    if (event.type === 'finish') reported.push(event.usage.inputTokens);
    yield event;
  }
}

/**
 * The first call's input tokens: estimated (what the budget was fitted with) and as the provider
 * reported them (null when it reported none); `reportedPerCall` for every model call of the turn.
 */
export function promptTokens(fitted: FittedContext, reported: readonly number[]): Record<string, unknown> {
  const first = reported[0];
  return { estimated: fitted.split.total, reported: first !== undefined && first > 0 ? first : null, reportedPerCall: reported };
}

/** The stored event keeps the pool entry as it was (name, labels, placement); the preview shows the origin (issue 19). */
function withoutOrigin(detail: PoolTool): Omit<PoolTool, 'origin'> {
  return { name: detail.name, labels: detail.labels, placement: detail.placement };
}
