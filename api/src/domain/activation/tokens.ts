/**
 * The one token estimator of activation/ (issue 8: the catalog budget and the context budget):
 * ceil(characters / 4), characters counted as UTF-16 code units (`string.length`). A deliberate,
 * provider-independent estimate: both budgets compare like with like, and the preview shows the same
 * numbers the cuts were decided on.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Tokens of a tool spec as the model receives it: its JSON text. */
export function estimateJsonTokens(value: unknown): number {
  return estimateTokens(JSON.stringify(value) ?? '');
}
