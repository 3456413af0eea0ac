// Handlers of the guardrail routes (manifests/guardrails.ts). Needs repo-configs: deploy and
// evaluate check that repository ids are the organization's configs, and a deleted config
// leaves every guardrail's deployedTo (its onRemove hook).
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/guardrails.ts';
import { createGuardrailStore } from './store.ts';
import { createGuardrailService } from './service.ts';
import { createEvaluator } from './evaluator.ts';
import type { PlanDocument } from './plan.ts';

export default definePlugin({
  manifest,
  needs: ['repo-configs'],
  build(ctx, deps) {
    const store = createGuardrailStore(ctx.db);
    const evaluator = createEvaluator({ workers: ctx.config.GUARDRAIL_WORKERS, timeoutMs: ctx.config.GUARDRAIL_EVALUATION_TIMEOUT_MS });
    const service = createGuardrailService(ctx, store, deps['repo-configs'], evaluator);
    ctx.metrics.gauge('guardrail_evaluations', 'Plan evaluations in the worker threads: running, and waiting for a worker', ['state'], () => [
      { labels: { state: 'running' }, value: evaluator.running }, { labels: { state: 'queued' }, value: evaluator.queued },
    ]);
    deps['repo-configs'].onRemove((orgId, configId) => service.forgetRepository(orgId, configId));
    ctx.defineRepositoryRecord('guardrail-evaluation', async (orgId, id) => (await store.evaluation(orgId, id))?.repositoryId ?? null);
    ctx.onOrgDelete((orgId) => service.removeOrg(orgId));
    return {
      stop: () => evaluator.close(),
      handlers: {
        list: ({ org, query }) => service.list(org.id, query),
        create: ({ org, body }) => service.create(org.id, body),
        templates: () => service.templates(),
        // The schema checks the plan's envelope; the rest of the document is read as Terraform writes it.
        evaluate: ({ org, principal, body }) => service.evaluate(org.id, principal, { repositoryId: body.repositoryId, plan: body.plan as PlanDocument }),
        evaluation: ({ org, params }) => service.evaluation(org.id, params.id),
        approve: ({ org, principal, params, body }) => service.decide(org.id, principal, params.id, 'approved', body.comment),
        reject: ({ org, principal, params, body }) => service.decide(org.id, principal, params.id, 'rejected', body.comment),
        bypass: ({ org, principal, params, body }) => service.bypass(org.id, principal, params.id, body.reason),
        get: ({ org, params }) => service.get(org.id, params.id),
        update: ({ org, params, body }) => service.update(org.id, params.id, body),
        remove: ({ org, params }) => service.remove(org.id, params.id),
        deploy: ({ org, params, body }) => service.deploy(org.id, params.id, body.repositoryIds),
        undeploy: ({ org, params, body }) => service.undeploy(org.id, params.id, body.repositoryIds),
      },
    };
  },
});
