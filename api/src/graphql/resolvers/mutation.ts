import type { MutationResolvers } from '../__generated__/resolvers-types';
import { documentModel } from '../document-model';
import { projectModel } from './project-models';

export const Mutation: MutationResolvers = {
  createTenant: async (_p, { name }, ctx) => ctx.services.identity.createTenant(await ctx.principal(), name),
  createUser: async (_p, { login, tenant, role }, ctx) =>
    ctx.services.identity.createUser(await ctx.principal(), login, tenant ?? null, role),
  createApiToken: async (_p, { label }, ctx) => ctx.services.identity.createApiToken(await ctx.principal(), label ?? null),
  createProject: async (_p, { name, kind }, ctx) => {
    const me = await ctx.principal();
    const project = await ctx.services.identity.createProject(me, name, kind);
    return projectModel(me, project, { projectId: project.id, userId: me.user.id, role: 'ADMIN' });
  },
  addProjectMember: async (_p, { project, login, role }, ctx) => {
    await ctx.services.identity.addProjectMember(await ctx.principal(), project, login, role);
    return { project, login, role };
  },
  putDocument: async (_p, { layer, project, path, content, expectedVersion, force }, ctx) => {
    const me = await ctx.principal();
    return documentModel(await ctx.services.documents.put(me, layer, project, path, content, { expectedVersion, force }), me, project);
  },
  deleteDocument: async (_p, { layer, project, path, expectedVersion }, ctx) =>
    ctx.services.documents.delete(await ctx.principal(), layer, project, path, expectedVersion),
  putSetting: async (_p, { key, value, project, secret }, ctx) =>
    ctx.services.settings.put(await ctx.principal(), key, value ?? null, project, secret),
};
