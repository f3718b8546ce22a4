import type { RecipeInput } from '../domain/recipes/parse-recipe';
import type { SkillSource } from '../domain/skills/parse-skill';
import type { ToolDescriptor } from '../domain/tools/tool-descriptor';
import type { TemplateLimits } from '../templates';

/**
 * What crosses to a pool worker: plain data only (structured clone). `validate` is a write's
 * validation, with the server's tool catalog (names and labels) its tool entries are checked against; `skill` and `recipe` are the load-time parses of large stored documents; `json` a large
 * request body.
 */
export type ValidationTask =
  | { readonly kind: 'validate'; readonly path: string; readonly content: string; readonly tools?: readonly ToolDescriptor[] }
  | { readonly kind: 'skill'; readonly source: SkillSource }
  | { readonly kind: 'recipe'; readonly input: RecipeInput }
  | { readonly kind: 'json'; readonly text: string };

export interface ValidationWorkerData {
  readonly templateLimits: TemplateLimits;
  readonly regexCheck: { readonly timeoutMs: number; readonly budgetMsPerMinute: number };
}

/** How much lower than the server's a validation worker's CPU priority is (validation-worker.ts). */
export const VALIDATION_THREAD_NICE = 10;
