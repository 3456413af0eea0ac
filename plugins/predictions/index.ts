// Handlers of the predictions routes (manifests/predictions.ts), the learn job, the nightly
// learn and the bus subscription that marks organizations for it.
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/predictions.ts';
import { createPredictionStore } from './store.ts';
import { createPredictionService, LEARN_JOB, NIGHTLY_JOB } from './service.ts';

/** 02:30 UTC every day. */
const NIGHTLY = '30 2 * * *';

export default definePlugin({
  manifest,
  needs: ['drifts', 'scans'],
  build(ctx, deps) {
    const store = createPredictionStore(ctx.db);
    const service = createPredictionService(ctx, { store, drifts: deps.drifts, scans: deps.scans });
    ctx.onOrgDelete((orgId) => service.removeOrg(orgId));
    return {
      provides: service,
      async start() {
        // One learn at a time per process: a run holds its organization's history in memory.
        ctx.scheduler.define<{ orgId: string; runId: string }>(LEARN_JOB, async (data) => {
          await service.runLearn(data.orgId, data.runId);
        }, { concurrency: 1, lockLimit: 1 });
        // Idempotent: each organization's request joins the run under way, if any.
        ctx.scheduler.define(NIGHTLY_JOB, async () => { await service.nightly(); });
        await ctx.scheduler.every(NIGHTLY, NIGHTLY_JOB, {});
        ctx.bus.on('scan.completed', (event) => service.markActive(event.orgId));
      },
      handlers: {
        highRisk: ({ org, query }) => service.highRisk(org.id, query),
        all: ({ org, query }) => service.all(org.id, query),
        insights: ({ org }) => service.insights(org.id),
        patterns: ({ org }) => service.patterns(org.id),
        model: ({ org }) => service.model(org.id),
        dashboard: ({ org }) => service.dashboard(org.id),
        metrics: ({ org }) => service.metrics(org.id),
        repositoryMetrics: ({ org, params }) => service.repositoryMetrics(org.id, params.repositoryConfigId),
        learn: ({ org }) => service.requestLearn(org.id, 'manual'),
        byRepository: ({ org, params, query }) => service.byRepository(org.id, params.repositoryConfigId, query),
        get: ({ org, params }) => service.get(org.id, params.predictionId),
        explanation: ({ org, params }) => service.explanation(org.id, params.predictionId),
        seen: ({ org, params, principal }) => service.seen(org.id, params.predictionId, principal.userId),
        action: ({ org, params, body, principal }) => service.action(org.id, params.predictionId, body, principal),
        feedback: ({ org, params, body, principal }) => service.feedback(org.id, params.predictionId, body, principal.userId),
      },
    };
  },
});
