// Handlers of the tracker routes (manifests/tracker.ts).
import { definePlugin } from '../../core/plugin.ts';
import { bearerToken } from '../../core/guards/principal.ts';
import { browserBinding } from '../../core/browser-binding.ts';
import { unauthorized } from '../../core/errors.ts';
import manifest from '../../manifests/tracker.ts';
import { createTrackerStore } from './store.ts';
import { createTrackerService } from './service.ts';

export default definePlugin({
  manifest,
  needs: ['drifts', 'drift-widgets', 'auth'],
  build(ctx, deps) {
    const store = createTrackerStore(ctx.db);
    const service = createTrackerService(ctx, store, { drifts: deps.drifts, widgets: deps['drift-widgets'], sessions: deps.auth.liveSessions });
    // Connecting a site completes only in the browser that started it (core/browser-binding.ts).
    const binding = browserBinding({ name: 'drift_tracker_connect', callbackUrl: `${ctx.config.publicUrl}/api/tracker/oauth/callback`, publicUrl: ctx.config.publicUrl });
    ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
    return {
      stop: () => service.close(),
      handlers: {
        async initiate({ org, principal, reply }) {
          if (!principal.userId) throw unauthorized('Connecting the tracker needs a user session');
          const bound = binding.issue();
          const answer = await service.initiate(org.id, principal.userId, principal.sessionId ?? null, bound.nonceHash);
          reply.header('set-cookie', bound.setCookie);
          return answer;
        },
        callback({ query, req, reply, resumed }) {
          // The flow is spent whatever the outcome: the cookie goes with it.
          if (binding.read(req.headers.cookie)) reply.header('set-cookie', binding.clear());
          return service.callback(query, { nonce: binding.read(req.headers.cookie), bearer: bearerToken(req) }, resumed);
        },
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
