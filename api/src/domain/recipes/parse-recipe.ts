/**
 * Parses and validates one recipe file (seed 004 §2, §6, §6a, §6c, §6d, §6e). Never throws: the
 * result carries every diagnostic with file, line, column and field, and a recipe only when no
 * ERROR was found. Templates are compile-checked when a TemplateEngine is given (seed 004 §5.4).
 *
 * YAML anchors and aliases: aliases are resolved into the values they stand for (the parser caps
 * alias expansion against "billion laughs"); YAML merge keys (`<<: *base`) are honoured; top-level
 * keys starting with `_` hold anchors for reuse (`_stance: &stance |`) and are not fields.
 * Diagnostics for aliased values point at the alias (or, for templates, at the anchored text).
 */
import type { Diagnostic } from '../errors';
import type { TemplateEngine } from '../templates/template-engine';
import type { ToolDescriptor } from '../tools/tool-descriptor';
import { checkEngine, checkEngineParams } from './check-engine-params';
import { checkRecipeTools } from './check-recipe-tools';
import { YamlSource } from '../shared/yaml-source';
import { parseGuards } from './parse-guards';
import { parseModes, parseProfiles } from './parse-profiles';
import {
  PROMPT_MODES, RECIPE_PROJECT_KINDS, type PromptMode, type Recipe, type RecipeProjectKind,
} from './recipe';
import { RecipeDiagnostics } from './recipe-diagnostics';
import {
  isAnchorHolder, RECIPE_EXTENSION_FIELDS, RECIPE_FIELDS, UNSUPPORTED_RECIPE_FIELDS, warnSwallowedFields, warnUnknownField,
  warnUnsupportedFields,
} from './recipe-fields';
import {
  isPlainMap, readBoolean, readEnum, readMap, readName, readStringList, readText, readToolList, type PlainMap,
} from './read-fields';
import { checkTemplate } from './template-check';

export interface RecipeInput {
  /** From the file name (`_vance/recipes/<name>.yaml`), never from a field. */
  readonly name: string;
  /** For diagnostics. */
  readonly path: string;
  readonly content: string;
}

export interface ParseRecipeResult {
  /** null when an ERROR was found, or when the recipe is disabled (`enabled: false`). */
  readonly recipe: Recipe | null;
  readonly diagnostics: readonly Diagnostic[];
  /** The `tenants:` load barrier as far as it could be read, also for a broken recipe (seed 004 §2a). */
  readonly tenants: readonly string[];
  /** false: `enabled: false` hides this recipe and every outer copy (DESIGN §1). */
  readonly enabled: boolean;
}

const KNOWN_FIELDS: readonly string[] = [...RECIPE_FIELDS, ...RECIPE_EXTENSION_FIELDS];
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * `tools`: the catalog entries of the tool lists are checked against (save-time validation only;
 * loading for a turn passes none).
 */
export function parseRecipe(input: RecipeInput, templates?: TemplateEngine, tools?: readonly ToolDescriptor[]): ParseRecipeResult {
  const source = new YamlSource(input.content);
  const d = new RecipeDiagnostics(input.path, source);
  const failed = (): ParseRecipeResult => ({ recipe: null, diagnostics: d.list, tenants: [], enabled: true });
  for (const problem of source.errors) {
    d.at('ERROR', [], `YAML syntax: ${problem.message}`, problem);
  }
  if (source.errors.length > 0) return failed();
  const doc = readDocument(source, d);
  if (!doc) return failed();

  const tenants = readStringList(d, doc.tenants, ['tenants']).map((t) => t.toLowerCase());
  const enabled = readBoolean(d, doc.enabled, ['enabled'], true);
  if (!enabled) return { recipe: null, diagnostics: d.list, tenants, enabled };

  for (const key of Object.keys(doc)) {
    if (!KNOWN_FIELDS.includes(key) && !isAnchorHolder(key)) warnUnknownField(d, [key], RECIPE_FIELDS, 'recipe');
  }
  warnUnsupportedFields(d, doc, [], UNSUPPORTED_RECIPE_FIELDS);
  const recipe = readRecipe(d, input, doc, tenants);
  checkEngine(d, doc.engine, recipe.engine);
  checkEngineParams(d, recipe.params);
  for (const profile of recipe.profiles.values()) checkEngineParams(d, profile.params, ['profiles', profile.name, 'params']);
  checkSkills(d, recipe.defaultActiveSkills, recipe.allowedSkills);
  if (tools) checkRecipeTools(d, doc, tools);
  if (templates) checkTemplates(d, source, templates, recipe);
  return { recipe: d.hasErrors() ? null : recipe, diagnostics: d.list, tenants, enabled };
}

function readDocument(source: YamlSource, d: RecipeDiagnostics): PlainMap | null {
  let value: unknown;
  try {
    value = source.toJS();
  } catch (error) {
    d.error([], `YAML: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
  if (value === null || value === undefined) {
    d.error([], 'the recipe is empty; it needs at least description and engine');
    return null;
  }
  if (!isPlainMap(value)) {
    d.error([], 'a recipe is a YAML map of fields (description:, engine:, params:, …), not a list or a single value');
    return null;
  }
  return value;
}

function readRecipe(d: RecipeDiagnostics, input: RecipeInput, doc: PlainMap, tenants: readonly string[]): Recipe {
  const params = readMap(d, doc.params, ['params']) ?? {};
  warnSwallowedFields(d, params, ['params']);
  return {
    name: input.name,
    path: input.path,
    description: required(d, doc, 'description', 'one line saying what the recipe does (shown in recipe_list and the Arthur prompt)'),
    engine: required(d, doc, 'engine', 'the engine that runs it, such as ford or arthur'),
    params,
    promptPrefix: readText(d, doc.promptPrefix, ['promptPrefix']),
    promptMode: readEnum<PromptMode>(d, doc.promptMode, ['promptMode'], PROMPT_MODES, 'APPEND', (t) => t.toUpperCase()),
    dataRelayCorrection: readDataRelayCorrection(d, doc.dataRelayCorrection),
    allowedToolsAdd: readToolList(d, doc.allowedToolsAdd, ['allowedToolsAdd']),
    allowedToolsRemove: readToolList(d, doc.allowedToolsRemove, ['allowedToolsRemove']),
    allowedToolsKeep: readToolList(d, doc.allowedToolsKeep, ['allowedToolsKeep']),
    allowedToolsDropFirst: readToolList(d, doc.allowedToolsDropFirst, ['allowedToolsDropFirst']),
    allowedToolsDefer: readToolList(d, doc.allowedToolsDefer, ['allowedToolsDefer']),
    defaultActiveSkills: readStringList(d, doc.defaultActiveSkills, ['defaultActiveSkills']),
    allowedSkills: doc.allowedSkills === null || doc.allowedSkills === undefined
      ? null
      : readStringList(d, doc.allowedSkills, ['allowedSkills']),
    locked: readBoolean(d, doc.locked, ['locked'], false),
    listed: readBoolean(d, doc.listed, ['listed'], false),
    internal: readBoolean(d, doc.internal, ['internal'], false),
    protected: readBoolean(d, doc.protected, ['protected'], false),
    web: readBoolean(d, doc.web, ['web'], false),
    projectKind: readEnum<RecipeProjectKind>(d, doc.projectKind, ['projectKind'], RECIPE_PROJECT_KINDS, 'normal', (t) => t.toLowerCase()),
    tenants,
    title: readName(d, doc.title, ['title']),
    category: readCategory(d, doc.category),
    tags: readStringList(d, doc.tags, ['tags']),
    guards: parseGuards(d, doc.guard),
    profiles: parseProfiles(d, doc.profiles),
    modes: parseModes(d, doc.modes),
    triggerKeywords: readTriggers(d, doc.triggers),
    roles: readStringList(d, doc.roles, ['roles']),
  };
}

function required(d: RecipeDiagnostics, doc: PlainMap, field: 'description' | 'engine', what: string): string {
  const value = readName(d, doc[field], [field]);
  if (value === null && (doc[field] === undefined || doc[field] === null || typeof doc[field] === 'string')) {
    d.error([field], `${field} is required: ${what}`);
  }
  return value ?? '';
}

/** Seed 004 §2: trim + lower-case; kebab-case expected. */
function readCategory(d: RecipeDiagnostics, value: unknown): string | null {
  const category = readName(d, value, ['category'])?.toLowerCase() ?? null;
  if (category !== null && !KEBAB.test(category)) {
    d.warning(['category'], `category '${category}' is not kebab-case (such as code-read); it still groups, but ids in recipe_categories.yaml are kebab-case`);
  }
  return category;
}

/**
 * Seed 004 §5a: a format string with two %d placeholders (tool data chars, reply length). Other
 * conversions, or more than two, make the formatter fail and the text be sent literally.
 */
function readDataRelayCorrection(d: RecipeDiagnostics, value: unknown): string | null {
  const text = readText(d, value, ['dataRelayCorrection']);
  if (text === null || text.trim() === '') return null;
  const conversions = text.replace(/%%/g, '').match(/%[-#+ 0,(]*\d*(?:\.\d+)?[a-zA-Z]/g) ?? [];
  if (conversions.some((c) => !c.endsWith('d')) || conversions.length > 2) {
    d.warning(['dataRelayCorrection'], `dataRelayCorrection takes at most two %d placeholders (tool data characters, reply length); '${conversions.join(' ')}' cannot be formatted, so the text would be sent literally (write %% for a percent sign)`);
  }
  return text;
}

function readTriggers(d: RecipeDiagnostics, value: unknown): string[] {
  const triggers = readMap(d, value, ['triggers']);
  if (!triggers) return [];
  for (const key of Object.keys(triggers)) {
    if (key !== 'keywords') warnUnknownField(d, ['triggers', key], ['keywords'], 'triggers block');
  }
  return readStringList(d, triggers.keywords, ['triggers', 'keywords']);
}

/** Seed 004 §6c: defaultActiveSkills ⊆ allowedSkills when set; `[]` is lockdown. */
function checkSkills(d: RecipeDiagnostics, defaults: readonly string[], allowed: readonly string[] | null): void {
  if (allowed === null || defaults.length === 0) return;
  if (allowed.length === 0) {
    d.error(['defaultActiveSkills'], 'allowedSkills: [] locks every skill out, so defaultActiveSkills must be empty; remove them or list them in allowedSkills');
    return;
  }
  const allowedSet = new Set(allowed);
  defaults.forEach((skill, index) => {
    if (!allowedSet.has(skill)) {
      d.error(['defaultActiveSkills', index], `default skill '${skill}' is not in allowedSkills, so it could never be active; add it to allowedSkills or remove it here`);
    }
  });
}

function checkTemplates(d: RecipeDiagnostics, source: YamlSource, templates: TemplateEngine, recipe: Recipe): void {
  if (recipe.promptPrefix !== null) checkTemplate(d, source, templates, ['promptPrefix'], recipe.promptPrefix);
  for (const profile of recipe.profiles.values()) {
    if (profile.promptPrefixAppend !== null) {
      checkTemplate(d, source, templates, ['profiles', profile.name, 'promptPrefixAppend'], profile.promptPrefixAppend);
    }
  }
}

/** The tenants barrier (seed 004 §2a): empty = every tenant; names compare case-insensitively. */
export function recipeAppliesToTenant(tenants: readonly string[], tenantName: string): boolean {
  return tenants.length === 0 || tenants.includes(tenantName.toLowerCase());
}
