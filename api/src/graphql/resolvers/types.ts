import type { DocumentResolvers, ProjectResolvers, UserResolvers } from '../__generated__/resolvers-types';

export const User: UserResolvers = {
  tenant: async (user, _a, ctx) => {
    const me = await ctx.principal();
    if (user.tenantId === me.tenant.id) return me.tenant;
    const [tenant] = (await ctx.services.identity.listTenants(me)).filter((t) => t.id === user.tenantId);
    if (!tenant) throw new Error(`tenant of user ${user.login} is not visible`);
    return tenant;
  },
};

export const Project: ProjectResolvers = {
  myRole: (project) => project.myRole,
  myPermissions: (project) => project.myPermissions,
};

export const Document: DocumentResolvers = {
  project: (doc) => doc.projectName,
  size: (doc) => Buffer.byteLength(doc.content, 'utf8'),
  diagnostics: (doc, _a, ctx) => doc.diagnostics ?? ctx.services.validator.validate(doc.path, doc.content),
};
