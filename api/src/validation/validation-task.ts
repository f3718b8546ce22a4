import type { TemplateLimits } from '../templates';

/** What crosses to a validation worker: plain data only (structured clone). */
export interface ValidationTask {
  readonly path: string;
  readonly content: string;
}

export interface ValidationWorkerData {
  readonly templateLimits: TemplateLimits;
  readonly regexCheck: { readonly timeoutMs: number; readonly budgetMsPerMinute: number };
}
