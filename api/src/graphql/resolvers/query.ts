import { jsonObject } from '../json-argument';
import type { QueryResolvers } from '../__generated__/resolvers-types';
import { documentModel, effectiveModel } from '../document-model';
import { projectModels } from './project-models';

export const Query: QueryResolvers = {
  me: async (_p, _a, ctx) => (await ctx.principal()).user,
  tenants: async (_p, _a, ctx) => ctx.services.identity.listTenants(await ctx.principal()),
  projects: async (_p, _a, ctx) => projectModels(ctx, await ctx.principal()),
  users: async (_p, _a, ctx) => ctx.services.identity.listUsers(await ctx.principal()),
  projectMembers: async (_p, { project }, ctx) =>
    (await ctx.services.identity.listProjectMembers(await ctx.principal(), project)).map((m) => ({ project, login: m.user.login, role: m.role })),
  documents: async (_p, { layer, project, prefix }, ctx) => {
    const me = await ctx.principal();
    const docs = await ctx.services.documents.list(me, layer, project, prefix ?? '');
    return docs.map((d) => documentModel(d, me, project));
  },
  document: async (_p, { layer, project, path }, ctx) => {
    const me = await ctx.principal();
    const doc = await ctx.services.documents.get(me, layer, project, path);
    return doc && documentModel(doc, me, project);
  },
  effectiveDocument: (_p, { project, path }, ctx) => {
    // Warm (token and every layer cached): answered without a promise, which spares graphql-js its
    // asynchronous completion of the whole selection (issue 18: the hot read of the API).
    const cachedMe = ctx.principalIfCached();
    const cached = cachedMe && ctx.services.documents.effectiveIfCached(cachedMe, project, path);
    if (cachedMe && cached !== undefined) return cached && effectiveModel(cached, cachedMe, project);
    return (async () => {
      const me = await ctx.principal();
      const hit = await ctx.services.documents.effective(me, project, path);
      return hit && effectiveModel(hit, me, project);
    })();
  },
  effectiveDocuments: async (_p, { project, prefix }, ctx) => {
    const me = await ctx.principal();
    const hits = await ctx.services.documents.effectiveList(me, project, prefix ?? '');
    return hits.map((h) => effectiveModel(h, me, project));
  },
  documentHistory: async (_p, { layer, project, path }, ctx) =>
    ctx.services.documents.history(await ctx.principal(), layer, project, path),
  setting: async (_p, { key, project }, ctx) => ctx.services.settings.get(await ctx.principal(), key, project),
  settings: async (_p, { project }, ctx) => ctx.services.settings.list(await ctx.principal(), project),
  validateDocument: async (_p, { path, content, project, layer }, ctx) =>
    ctx.services.documents.validateDraft(await ctx.principal(), path, content, project ? { project, layer: layer ?? 'PROJECT' } : null),
  renderTemplate: async (_p, { project, source, context, kind, recipe }, ctx) =>
    ctx.services.templatePreview.render(await ctx.principal(), { project, source, context: jsonObject(context, 'context'), kind, recipe }),
  skills: async (_p, { project, surface }, ctx) => ctx.services.skillCatalog.list(await ctx.principal(), project, surface ?? 'ALL'),
  skill: async (_p, { name, project }, ctx) => ctx.services.skillCatalog.get(await ctx.principal(), name, project),
  recipes: async (_p, { project }, ctx) => ctx.services.recipeCatalog.list(await ctx.principal(), project),
  recipe: async (_p, { name, project }, ctx) => ctx.services.recipeCatalog.get(await ctx.principal(), name, project),
  listedRecipes: async (_p, { project }, ctx) => ctx.services.recipeCatalog.listed(await ctx.principal(), project),
  resolveRecipe: async (_p, { name, engine, project, params, profile }, ctx) =>
    ctx.services.recipeCatalog.resolve(await ctx.principal(), { name, engine, project, params: jsonObject(params, 'params'), profile }),
  manuals: async (_p, { project, paths }, ctx) => ctx.services.recipeCatalog.manuals(await ctx.principal(), project, paths),
  toolCatalog: async (_p, _a, ctx) => {
    await ctx.principal();
    return ctx.services.tools.list().map((t) => ({ name: t.name, labels: [...t.labels], description: t.description ?? '' }));
  },
  projectTools: async (_p, { project }, ctx) => ctx.services.projectTools.list(await ctx.principal(), project ?? null),
};
