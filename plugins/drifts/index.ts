// Handlers of the drift routes (manifests/drifts.ts), and the drifts service: a drift's whole
// life. Drifts need no other plugin: a scan's or repository config's existence is asked of the
// engine (ctx.repositoryOf); the scans plugin hands each completed result to
// service.reconcile, and annotating plugins (cloud-events) attach to service.attachAnnotator
// while the plugins are built.
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/drifts.ts';
import { createAnnotators } from './annotators.ts';
import { createLifecycleStore } from './lifecycle-store.ts';
import { createDriftStore } from './store.ts';
import { createDriftService, toFilter } from './service.ts';
import { streamCsv } from './export.ts';

export default definePlugin({
  manifest,
  needs: [],
  build(ctx) {
    const drifts = createDriftStore(ctx.db);
    const annotators = createAnnotators();
    const service = createDriftService(ctx, { drifts, lifecycle: createLifecycleStore(ctx.db), annotators });
    ctx.defineRepositoryRecord('drift', async (orgId, id) => (await drifts.get(orgId, id))?.repositoryConfig ?? null);
    ctx.onOrgDelete((orgId) => drifts.removeOrg(orgId));

    return {
      provides: service,
      // Every plugin is built by now: the annotators are those attached at boot.
      async start() { annotators.close(); },
      handlers: {
        list: ({ org, query, repositories }) => service.list(org.id, query, repositories),
        query: ({ org, query, repositories }) => service.query(org.id, query, repositories),
        aggregations: ({ org, query, repositories }) => service.aggregations(org.id, query, repositories),
        exportCsv: ({ org, query, repositories, req, reply }) => streamCsv(req, reply, drifts, org.id, toFilter(query, repositories), query.sort),
        suggestions: ({ org, repositories }) => service.suggestions(org.id, repositories),
        autocomplete: ({ org, query, repositories }) => service.autocomplete(org.id, query, repositories),
        byScan: ({ org, params }) => service.byScan(org.id, params.scanId),
        byRepository: ({ org, params, query }) => service.byRepository(org.id, params.repositoryConfigId, query),
        statistics: ({ org, params }) => service.statistics(org.id, params.repositoryConfigId),
        rules: () => service.rules(),
        get: ({ org, params }) => service.get(org.id, params.driftId),
        setStatus: ({ org, params, body }) => service.setStatus(org.id, params.driftId, body.status),
        feedback: ({ org, params, body, principal }) => service.feedback(org.id, params.driftId, body, principal.userId),
      },
    };
  },
});
