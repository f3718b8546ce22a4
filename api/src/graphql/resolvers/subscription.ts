import { DOCUMENT_CHANGED_TOPIC, type DocumentChanged } from '../../domain/events/document-changed';
import { TENANT_PROJECT, userProjectName } from '../../domain/identity/identity';
import type { SubscriptionResolvers } from '../__generated__/resolvers-types';
import { eventStream } from '../event-stream';
import type { DocumentChangedModel } from '../models';

export const Subscription: SubscriptionResolvers = {
  documentChanged: {
    // Resolving the scope first makes an invisible project NOT_FOUND before anything streams.
    subscribe: async (_p, { project }, ctx) => {
      const me = await ctx.principal();
      const scope = await ctx.services.targets.scope(me, project);
      const names = new Map<string, string>([[me.tenantProjectId, TENANT_PROJECT], [me.userProjectId, userProjectName(me.user.login)]]);
      if (scope.projectId && project) names.set(scope.projectId, project);
      return eventStream<DocumentChanged, { documentChanged: DocumentChangedModel }>(ctx.services.bus, DOCUMENT_CHANGED_TOPIC, (e) => {
        const name = e.tenantId === me.tenant.id ? names.get(e.projectId) : undefined;
        if (name === undefined) return null;
        return { documentChanged: { layer: e.layer, project: name, path: e.path, version: e.version, change: e.change, author: e.author, at: e.at } };
      });
    },
  },
};
