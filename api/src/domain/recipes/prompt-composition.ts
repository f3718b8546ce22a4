/**
 * System prompt composition (seed 004 §5.1, §5.3, §6a; DESIGN §10). The recipe `promptPrefix` and the
 * profile `promptPrefixAppend` are templates rendered per turn with the §5.1 context. The append is
 * rendered first and exposed to the recipe template as `profileAppend`; if the template does not
 * reference it and it is non-blank, it is added at the end after one blank line (trailing newlines of
 * the rendered prefix are dropped first, so block scalars do not pile up blank lines). The append is
 * always additive, also in OVERWRITE mode and without a promptPrefix. Then:
 *   override blank → engine default alone; APPEND → default + separator + override; OVERWRITE → override.
 */
import { templateContext } from '../templates/template-context';
import type { TemplateContext, TemplateEngine } from '../templates/template-engine';
import type { PromptMode } from './recipe';

export const RECIPE_EXTENSION_SEPARATOR = '\n\n--- recipe extension ---\n\n';

/** The render context of seed 004 §5.1 (without `profileAppend`, which composition adds). */
export interface PromptRenderContext {
  /** "small" | "large", from the model catalog or params.modelSize. */
  readonly tier: string;
  readonly model: string;
  /** Lower-case provider name. */
  readonly provider: string;
  /** Plan mode: NORMAL, EXPLORING, PLANNING, EXECUTING. */
  readonly mode: string;
  readonly profile: string;
  readonly recipe: string;
  readonly engine: string;
  /** Chat language; absent until it is known. */
  readonly lang?: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export type ProfileAppendPlacement = 'TEMPLATE' | 'APPENDED' | 'NONE';

export interface RenderedRecipePrompt {
  /** The rendered recipe part (prefix + profile append); '' when there is none. */
  readonly text: string;
  readonly profileAppend: string;
  readonly placement: ProfileAppendPlacement;
}

export interface ComposedPrompt extends RenderedRecipePrompt {
  readonly systemPrompt: string;
}

export interface RecipePromptTemplates {
  /** The recipe's promptPrefix (the process's promptOverride), unrendered. */
  readonly promptOverride: string | null;
  /** The selected profile block's promptPrefixAppend, unrendered. */
  readonly profileAppend: string | null;
  readonly promptMode: PromptMode;
}

export function renderRecipePrompt(
  templates: TemplateEngine, prompt: RecipePromptTemplates, context: PromptRenderContext,
): Promise<RenderedRecipePrompt> {
  return recipePromptIn(templates, prompt, templateContext(templates, { ...context }));
}

/** The recipe part rendered through `rendering` (the §5.1 context; `profileAppend` comes per render). */
async function recipePromptIn(templates: TemplateEngine, prompt: RecipePromptTemplates, rendering: TemplateContext): Promise<RenderedRecipePrompt> {
  const profileAppend = prompt.profileAppend ? await rendering.render(prompt.profileAppend, { profileAppend: '' }) : '';
  const hasAppend = profileAppend.trim() !== '';
  if (!prompt.promptOverride || prompt.promptOverride.trim() === '') {
    return { text: hasAppend ? profileAppend : '', profileAppend, placement: hasAppend ? 'APPENDED' : 'NONE' };
  }
  const text = await rendering.render(prompt.promptOverride, { profileAppend });
  if (templates.referencedVariables(prompt.promptOverride).has('profileAppend')) return { text, profileAppend, placement: 'TEMPLATE' };
  if (!hasAppend) return { text, profileAppend, placement: 'NONE' };
  const joined = text.trim() === '' ? profileAppend : `${text.replace(/\n+$/, '')}\n\n${profileAppend}`;
  return { text: joined, profileAppend, placement: 'APPENDED' };
}

export async function composeSystemPrompt(
  templates: TemplateEngine, engineDefault: string, prompt: RecipePromptTemplates, context: PromptRenderContext,
): Promise<ComposedPrompt> {
  // One context for the turn's (up to) three renders: the engine copies it once, not per render.
  const rendering = templateContext(templates, { ...context });
  const recipePart = await recipePromptIn(templates, prompt, rendering);
  const renderedDefault = await rendering.render(engineDefault, { profileAppend: recipePart.profileAppend });
  return { ...recipePart, systemPrompt: combine(renderedDefault, recipePart.text, prompt.promptMode) };
}

function combine(renderedDefault: string, renderedOverride: string, mode: PromptMode): string {
  if (renderedOverride.trim() === '') return renderedDefault;
  switch (mode) {
    case 'APPEND':
      return renderedDefault + RECIPE_EXTENSION_SEPARATOR + renderedOverride;
    case 'OVERWRITE':
      return renderedOverride;
    default: {
      const never: never = mode;
      return never;
    }
  }
}
