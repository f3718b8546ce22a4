/**
 * Loads recipes over the document cascade (seed 004 §2a, §3): `_vance/recipes/<name>.yaml`, first hit
 * wins the whole document. The single gate every use passes through, so the `tenants:` load barrier
 * lives here: a recipe not for the caller's tenant is "not found" — never "forbidden" (no oracle) —
 * and the cascade does NOT search further outward. `enabled: false` hides outer copies the same way.
 * A recipe that does not validate is unusable (RecipeInvalidError, BAD_INPUT) but listable for
 * admins with its diagnostics. Parsed results are cached per document version.
 */
import { LRUCache } from 'lru-cache';
import type { DocumentCascade } from '../cascade/document-cascade';
import type { LayerDocument } from '../cascade/document';
import type { Layer } from '../cascade/layer';
import type { CascadeScope } from '../cascade/scope';
import { NotFoundError, type Diagnostic } from '../errors';
import type { TemplateEngine } from '../templates/template-engine';
import { InvalidRecipeNameError, RecipeInvalidError } from './errors';
import { parseRecipe, recipeAppliesToTenant, type ParseRecipeResult, type RecipeInput } from './parse-recipe';
import type { LargeDocumentParser } from '../shared/large-document-parser';
import type { Recipe, SourcedRecipe } from './recipe';

/** The folder of recipes in every layer (seed 004 §3, DESIGN §1). */
export const RECIPES_FOLDER = '_vance/recipes/';
const EXTENSION = '.yaml';
const RECIPE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

export function recipePath(name: string): string {
  if (!RECIPE_NAME.test(name) || name.endsWith('.')) throw new InvalidRecipeNameError(name);
  return `${RECIPES_FOLDER}${name}${EXTENSION}`;
}

/** The recipe name of a path directly in the recipes folder, else null. */
export function recipeNameOf(path: string): string | null {
  if (!path.startsWith(RECIPES_FOLDER) || !path.endsWith(EXTENSION)) return null;
  const name = path.slice(RECIPES_FOLDER.length, -EXTENSION.length);
  return RECIPE_NAME.test(name) && !name.includes('/') ? name : null;
}

export interface LoadedRecipe extends SourcedRecipe {
  /** The document version that was parsed (for snapshots and audit). */
  readonly version: number;
  /** Warnings only: a loaded recipe has no errors. */
  readonly diagnostics: readonly Diagnostic[];
}

export interface RecipeListing {
  readonly name: string;
  readonly path: string;
  readonly source: Layer;
  readonly shadowed: readonly Layer[];
  /** null when it does not validate (see diagnostics). */
  readonly recipe: Recipe | null;
  readonly diagnostics: readonly Diagnostic[];
}

export interface RecipeLoaderDeps {
  readonly cascade: DocumentCascade;
  /** Compile-checks templates at load (seed 004 §5.4); without it templates are checked at render. */
  readonly templates?: TemplateEngine;
  /** Parsed recipes kept (default 5,000) … */
  readonly cacheSize?: number;
  /** … and the characters of recipe text they may stand for together (default 32M). */
  readonly cacheChars?: number;
  /** Where large recipes are parsed (off the event loop); without it, in place. */
  readonly largeParser?: LargeDocumentParser<RecipeInput, ParseRecipeResult>;
}

export class RecipeLoader {
  /**
   * Parsed recipes by (layer, project, path, version): the version changes on every write, so an
   * entry never goes stale and needs no invalidation (DESIGN §4: the hot path does not re-parse).
   * The parse does not depend on the caller's tenant (the `tenants:` barrier is applied after), so
   * bundled recipes are shared across tenants. Least recently used out.
   */
  private readonly parsed: LRUCache<string, ParseRecipeResult>;

  constructor(private readonly deps: RecipeLoaderDeps) {
    this.parsed = new LRUCache({ max: deps.cacheSize ?? 5_000, maxSize: deps.cacheChars ?? 32_000_000 });
  }

  /** null when no layer has it, or the first hit is disabled or not for this tenant. */
  async find(scope: CascadeScope, tenantName: string, name: string): Promise<LoadedRecipe | null> {
    const hit = await this.deps.cascade.lookupCascade(scope, recipePath(name));
    if (!hit) return null;
    const parsed = await this.parse(hit.document, name);
    if (!parsed.enabled || !recipeAppliesToTenant(parsed.tenants, tenantName)) return null;
    if (!parsed.recipe) throw new RecipeInvalidError(name, hit.source, parsed.diagnostics);
    return { recipe: parsed.recipe, source: hit.source, shadowed: hit.shadowed, version: hit.document.version, diagnostics: parsed.diagnostics };
  }

  /** Like find, but a missing recipe is a NotFoundError. */
  async load(scope: CascadeScope, tenantName: string, name: string): Promise<LoadedRecipe> {
    const loaded = await this.find(scope, tenantName, name);
    if (!loaded) throw new NotFoundError('Recipe', name);
    return loaded;
  }

  /**
   * The effective recipes of the scope (seed 004 §3 "Listing"), inner over outer by name, sorted by
   * name, filtered by the same barrier as load. Broken recipes only with `includeInvalid` (admins).
   */
  async listAvailable(scope: CascadeScope, tenantName: string, options: { includeInvalid?: boolean } = {}): Promise<RecipeListing[]> {
    const hits = await this.deps.cascade.listByPrefixCascade(scope, RECIPES_FOLDER);
    const listings: RecipeListing[] = [];
    for (const hit of hits) {
      const name = recipeNameOf(hit.document.path);
      if (!name) continue;
      const parsed = await this.parse(hit.document, name);
      if (!parsed.enabled || !recipeAppliesToTenant(parsed.tenants, tenantName)) continue;
      if (!parsed.recipe && !options.includeInvalid) continue;
      listings.push({ name, path: hit.document.path, source: hit.source, shadowed: hit.shadowed, recipe: parsed.recipe, diagnostics: parsed.diagnostics });
    }
    return listings;
  }

  private async parse(doc: LayerDocument, name: string): Promise<ParseRecipeResult> {
    const key = `${doc.layer}\u0000${doc.projectId ?? ''}\u0000${doc.path}\u0000${doc.version}`;
    let parsed = this.parsed.get(key);
    if (!parsed) {
      const input = { name, path: doc.path, content: doc.content };
      const large = this.deps.largeParser;
      parsed = large && input.content.length >= large.minChars ? await large.parse(input) : parseRecipe(input, this.deps.templates);
      // Sized by the recipe's text: the parse holds about as much.
      this.parsed.set(key, parsed, { size: key.length + doc.content.length });
    }
    return parsed;
  }
}
