/**
 * The engines' default prompts as documents (seed 004 §5.6, `prompts/<engine>-prompt.md`): the
 * bundled copies live in vance-defaults/_vance/prompts/, and a tenant, project or user shadows one
 * like any other document, first hit wins. The text built into the engine (ford.ts, arthur.ts)
 * is only the fallback when no layer holds the document. The prompt is a template, rendered per
 * turn with the recipe prefix (prompt-composition.ts).
 */
import type { CascadeHit } from '../cascade/document-cascade';
import type { Layer } from '../cascade/layer';
import type { CascadeScope } from '../cascade/scope';

export const ENGINE_PROMPTS_PREFIX = '_vance/prompts/';

export function enginePromptPath(engine: string): string {
  return `${ENGINE_PROMPTS_PREFIX}${engine}-prompt.md`;
}

export interface EnginePrompt {
  readonly text: string;
  /** The layer the document came from; null: the engine's built-in text. */
  readonly source: Layer | null;
}

export interface EnginePromptLookup {
  lookupCascade(scope: CascadeScope, path: string): Promise<CascadeHit | null>;
}

export class EnginePrompts {
  /** `builtin`: engine name → the text used when no layer holds the document. */
  constructor(
    private readonly cascade: EnginePromptLookup,
    private readonly builtin: ReadonlyMap<string, string>,
  ) {}

  /** The effective default prompt of `engine` in `scope`; '' for an engine with neither document nor built-in text. */
  async defaultPrompt(scope: CascadeScope, engine: string): Promise<EnginePrompt> {
    const hit = await this.cascade.lookupCascade(scope, enginePromptPath(engine));
    // A file's final newline is not part of the prompt: the recipe extension follows it directly.
    if (hit) return { text: hit.document.content.replace(/\s+$/, ''), source: hit.source };
    return { text: this.builtin.get(engine) ?? '', source: null };
  }
}
