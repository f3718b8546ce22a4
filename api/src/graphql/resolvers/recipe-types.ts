import type { RecipeResolvers, ResolvedRecipeResolvers } from '../__generated__/resolvers-types';

/** Flattens a recipe listing; a broken one (valid: false) has only its name, source and diagnostics. */
export const Recipe: RecipeResolvers = {
  valid: (l) => l.recipe !== null,
  description: (l) => l.recipe?.description ?? null,
  engine: (l) => l.recipe?.engine ?? null,
  title: (l) => l.recipe?.title ?? null,
  category: (l) => l.recipe?.category ?? null,
  tags: (l) => l.recipe?.tags ?? [],
  locked: (l) => l.recipe?.locked ?? false,
  listed: (l) => l.recipe?.listed ?? false,
  internal: (l) => l.recipe?.internal ?? false,
  protected: (l) => l.recipe?.protected ?? false,
  web: (l) => l.recipe?.web ?? false,
  projectKind: (l) => l.recipe?.projectKind ?? null,
  promptMode: (l) => l.recipe?.promptMode ?? null,
  promptPrefix: (l) => l.recipe?.promptPrefix ?? null,
  dataRelayCorrection: (l) => l.recipe?.dataRelayCorrection ?? null,
  params: (l) => l.recipe?.params ?? null,
  allowedToolsAdd: (l) => l.recipe?.allowedToolsAdd ?? [],
  allowedToolsRemove: (l) => l.recipe?.allowedToolsRemove ?? [],
  allowedToolsKeep: (l) => l.recipe?.allowedToolsKeep ?? [],
  allowedToolsDropFirst: (l) => l.recipe?.allowedToolsDropFirst ?? [],
  defaultActiveSkills: (l) => l.recipe?.defaultActiveSkills ?? [],
  allowedSkills: (l) => l.recipe?.allowedSkills ?? null,
  tenants: (l) => l.recipe?.tenants ?? [],
  profiles: (l) => (l.recipe ? [...l.recipe.profiles.values()] : []),
  guards: (l) => l.recipe?.guards ?? [],
};

export const ResolvedRecipe: ResolvedRecipeResolvers = {
  promptTemplate: (r) => r.promptOverride,
  request: async (r) => (r.request ? r.request() : null),
};
