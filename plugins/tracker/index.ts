// Handlers of the tracker routes (manifests/tracker.ts).
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/tracker.ts';
import { createTrackerStore } from './store.ts';
import { createTrackerService } from './service.ts';

export default definePlugin({
  manifest,
  needs: ['drifts', 'drift-widgets'],
  build(ctx, deps) {
    const store = createTrackerStore(ctx.db);
    const service = createTrackerService(ctx, store, { drifts: deps.drifts, widgets: deps['drift-widgets'] });
    ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
    return {
      stop: () => service.close(),
      handlers: {
        initiate: ({ org, principal }) => service.initiate(org.id, principal.userId ?? principal.kind),
        callback: ({ query }) => service.callback(query),
        getConfig: ({ org }) => service.getConfig(org.id),
        setConfig: ({ org, body }) => service.setConfig(org.id, body),
        testConnection: ({ org }) => service.testConnection(org.id),
        projects: ({ org }) => service.projects(org.id),
        issueTypes: ({ org, params }) => service.issueTypes(org.id, params.projectKey),
        priorities: ({ org }) => service.priorities(org.id),
        createTicket: ({ org, params }) => service.createTicket(org.id, params.widgetId),
        verifyTicket: ({ org, params }) => service.verifyTicket(org.id, params.widgetId),
        disconnect: ({ org }) => service.disconnect(org.id),
      },
    };
  },
});
