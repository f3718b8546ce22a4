/**
 * `vance.llm.callForJson(recipe, instruction, data)` (seed 000 §2a, seed 004 §6d): one model call with
 * a recipe's prompt and model, asking for one JSON object about `data`; the answer is parsed. The
 * judge sees the data as JSON text inside the user message, never as prompt template source.
 */
import type { CascadeScope } from '../cascade/scope';
import type { Principal } from '../identity/principal';
import type { ModelProvider } from '../llm/model-provider';
import { resolveModel } from '../recipes/model-alias';
import type { RecipeResolver } from '../recipes/recipe-resolver';
import { resolveSampling } from '../recipes/sampling-params';
import type { JsonValue } from '../scripting/script-runner';
import type { SettingsService } from '../settings/settings-service';
import { callWithDeadline } from '../turns/model-call';

export interface LlmJsonCaller {
  callForJson(request: { principal: Principal; scope: CascadeScope; recipe: string; instruction: string; data: unknown }): Promise<JsonValue>;
}

const JSON_RULE = 'Answer with exactly one JSON object and nothing else: no prose, no code fence.';
const MAX_DATA_CHARS = 200_000;

export class RecipeLlmJsonCaller implements LlmJsonCaller {
  constructor(private readonly deps: { resolver: RecipeResolver; settings: SettingsService; provider: ModelProvider; timeoutMs?: number }) {}

  async callForJson(request: { principal: Principal; scope: CascadeScope; recipe: string; instruction: string; data: unknown }): Promise<JsonValue> {
    const { principal, scope } = request;
    if (typeof request.recipe !== 'string' || request.recipe.trim() === '') throw new Error('vance.llm.callForJson: recipe must be a recipe name');
    if (typeof request.instruction !== 'string') throw new Error('vance.llm.callForJson: instruction must be a string');
    const settings = this.deps.settings.reader(scope.tenantId, scope.projectId);
    // An empty engine default: the judge's prompt is the recipe's own (no worker persona).
    const resolution = await this.deps.resolver.resolve({ scope, tenantName: principal.tenant.name, settings, recipe: request.recipe, engineDefaultPrompt: '' });
    if (resolution.recipe === null) throw new Error(`vance.llm.callForJson: no recipe '${request.recipe}' in this project`);
    // The preview is null only when the recipe's prompt failed to render (e.g. its template was
    // stopped by the render time cap on a busy machine). A judge without its prompt answers
    // something else entirely, so the call fails (the guard fails open, visibly) instead.
    if (resolution.systemPromptPreview === null) {
      const why = resolution.warnings.find((w) => w.field === 'promptPrefix')?.message ?? 'the system prompt could not be rendered';
      throw new Error(`vance.llm.callForJson: recipe '${request.recipe}': ${why}`);
    }
    const data = JSON.stringify(request.data ?? null) ?? 'null';
    if (data.length > MAX_DATA_CHARS) throw new Error(`vance.llm.callForJson: data is ${data.length} characters of JSON; the limit is ${MAX_DATA_CHARS}`);
    const model = resolution.model ?? await resolveModel(typeof resolution.params.model === 'string' ? resolution.params.model : 'default:fast', settings);
    const system = [resolution.systemPromptPreview, JSON_RULE].filter((s) => s.trim() !== '').join('\n\n');
    let text = '';
    for await (const event of callWithDeadline(this.deps.provider, {
      provider: model.provider, model: model.model, tools: [], settings, sampling: resolveSampling({ params: resolution.params }).sampling,
      messages: [{ role: 'system', content: system }, { role: 'user', content: `${request.instruction}\n\nData (JSON):\n${data}` }],
    }, this.deps.timeoutMs ?? 60_000)) {
      if (event.type === 'text-delta') text += event.text;
    }
    return parseJsonAnswer(text);
  }
}

/** The first JSON object in a model answer (code fences and surrounding prose tolerated). */
export function parseJsonAnswer(text: string): JsonValue {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start >= 0 && end > start) {
    try {
      return JSON.parse(text.slice(start, end + 1)) as JsonValue;
    } catch {
      // fall through to the error below
    }
  }
  throw new Error(`vance.llm.callForJson: the model did not answer with a JSON object (got ${JSON.stringify(text.slice(0, 200))})`);
}
