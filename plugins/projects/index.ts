// Handlers of the project routes (manifests/projects.ts).
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/projects.ts';
import { createProjectStore } from './store.ts';
import { createProjectService } from './service.ts';

export default definePlugin({
  manifest,
  needs: [],
  // Only its credential schemas and masks (a project's credentials are a provider's fields).
  uses: ['credentials'],
  build(ctx) {
    const store = createProjectStore(ctx.db);
    const service = createProjectService(ctx, store);
    ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
    // A project with credentials is a connected cloud account (with the organization's own,
    // plugins/credentials); saving a project's credentials again replaces them.
    ctx.defineMeter('cloudAccounts', {
      used: (orgId) => store.countWithCredentials(orgId),
      adds: async (orgId, { params }) => {
        const project = await store.get(orgId, params.id);
        return Boolean(project && !project.sealed);
      },
    });
    return {
      provides: service,
      handlers: {
        list: ({ org }) => service.list(org.id),
        create: ({ org, body }) => service.create(org.id, body),
        get: ({ org, params }) => service.get(org.id, params.id),
        update: ({ org, params, body }) => service.update(org.id, params.id, body),
        remove: ({ org, params }) => service.remove(org.id, params.id),
        setCredentials: ({ org, params, body }) => service.setCredentials(org.id, params.id, body),
        setDefault: ({ org, params }) => service.setDefault(org.id, params.id),
      },
    };
  },
});
