/**
 * Recipes (seed 004): parse + validate, cascade loading with the tenants barrier, resolution
 * (defaulting, profiles, params, lock, prompt composition, tool pool, sampling, model aliases),
 * the picker, manuals and the recipe_list shape.
 */
export * from './recipe';
export * from './errors';
export { parseRecipe, recipeAppliesToTenant, type RecipeInput, type ParseRecipeResult } from './parse-recipe';
export { RECIPE_FIELDS, RECIPE_EXTENSION_FIELDS, PROFILE_FIELDS, GUARD_FIELDS } from './recipe-fields';
export * from './recipe-document-kind';
export * from './recipe-loader';
export * from './spawn-defaulting';
export * from './params-merge';
export * from './profile-block';
export * from './prompt-composition';
export * from './tool-pool';
export * from './tool-budget';
export * from './sampling-params';
export * from './model-alias';
export * from './model-catalog';
export * from './recipe-resolution';
export * from './recipe-resolver';
export * from './recipe-categories';
export * from './recipe-picker';
export * from './manuals';
export * from './recipe-list';
export * from './recipe-catalog';
