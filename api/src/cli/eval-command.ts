import { loadConfig } from '../config';
import { modelPickJudge } from '../domain/activation/model-pick-judge';
import type { ModelProvider } from '../domain/llm/model-provider';
import { StaticSettings } from '../domain/settings/settings-reader';
import { evaluate, formatEvalText } from './eval';

/** `vance eval`: `picked:` cases ask the model of VANCE_DEFAULT_SETTINGS (ai.default.provider/model). */
export async function runEval(roots: readonly string[], json: boolean): Promise<number> {
  const judge = modelPickJudge(lazyAiSdkProvider(), new StaticSettings(loadConfig().defaultSettings));
  const run = await evaluate(roots, await judge);
  console.log(json ? JSON.stringify(run, null, 2) : formatEvalText(run));
  return run.failed > 0 ? 1 : 0;
}

/**
 * The AI SDK provider, loaded on the first model call (`picked:` cases with a configured provider
 * only: `vance eval` without one never loads the SDK). `require`, not `import()`: run from source,
 * the CLI is under tsx's CommonJS hook, which an `import()` would bypass.
 */
function lazyAiSdkProvider(): ModelProvider {
  let provider: ModelProvider | undefined;
  return {
    async *stream(request) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      provider ??= new (require('../llm/ai-sdk-provider') as typeof import('../llm/ai-sdk-provider')).AiSdkProvider();
      yield* provider.stream(request);
    },
  };
}
