// Handlers of the scan routes (manifests/scans.ts), the scan jobs, and the scans service:
// result recording and scan execution (execution.ts) for the executor and runners.
import { definePlugin } from '../../core/plugin.ts';
import { sweepEveryPoll } from '../../core/due-scan.ts';
import manifest from '../../manifests/scans.ts';
import { SCHEDULED_SCAN_JOB } from '../repo-configs/service.ts';
import { isoDay } from '../drifts/trend.ts';
import { createScanStore, SCAN_STATUSES } from './store.ts';
import { createManagedStore } from './managed-store.ts';
import { createScanService, TIMEOUT_JOB } from './service.ts';
import { LEASE_SWEEP_JOB } from './sweep.ts';
import { createApiBudget } from './api-budget.ts';

export default definePlugin({
  manifest,
  needs: ['repo-configs', 'drifts'],
  // Scan inputs: the project's credentials, else the organization's; the source host's
  // installation token for a repository of the organization's active app installation.
  uses: ['credentials', 'projects', 'scm'],
  build(ctx, deps) {
    const scans = createScanStore(ctx.db);
    const managed = createManagedStore(ctx.db);
    const configs = deps['repo-configs'];
    const apiBudget = createApiBudget(ctx, ctx.db);
    const service = createScanService(ctx, {
      scans, managed, drifts: deps.drifts, configs, readers: { credentials: deps.credentials, projects: deps.projects, sourceHost: deps.scm, apiRates: apiBudget.rates }, apiBudget,
      timeoutMinutes: ctx.config.SCAN_TIMEOUT_MINUTES, endpoints: { cloud_a: ctx.config.DRIFT_CLOUD_A_ENDPOINT, cloud_b: ctx.config.DRIFT_CLOUD_B_ENDPOINT, cloud_c: ctx.config.DRIFT_CLOUD_C_ENDPOINT },
    });
    // Scans per day (UTC): the limit counts scans started, through the day's numbered quota keys
    // (service.takeQuota); the usage shown is the scans of the day.
    ctx.defineMeter('scansPerDay', { used: (orgId) => scans.countDay(orgId, isoDay(new Date())), take: service.takeQuota });
    ctx.defineRepositoryRecord('scan', async (orgId, id) => (await scans.get(orgId, id))?.repositoryConfig ?? null);
    // A deleted config takes its drifts, then its scans, with it (repo-configs runs these in this order).
    configs.onRemove((orgId, configId) => deps.drifts.removeByConfig(orgId, configId));
    configs.onRemove(async (orgId, configId) => { await scans.removeByConfig(orgId, configId); });
    configs.onRemove(async (orgId, configId) => { await managed.removeByConfig(orgId, configId); });
    // A runnerLabels change re-routes the config's waiting scans (sweep.ts).
    configs.onUpdate((before, after) => service.reroute(before, after).then(() => undefined));
    configs.addStats(async (orgId, configId) => {
      const [totalScans, totalDrifts, resolvedDrifts] = await Promise.all([
        scans.count(orgId, { repositoryConfig: [configId] }),
        deps.drifts.countByConfig(orgId, configId),
        deps.drifts.countByConfig(orgId, configId, 'resolved'),
      ]);
      return { totalScans, totalDrifts, resolvedDrifts };
    });
    ctx.onOrgDelete((orgId) => scans.removeOrg(orgId));
    ctx.onOrgDelete((orgId) => managed.removeOrg(orgId));
    ctx.onOrgDelete((orgId) => apiBudget.removeOrg(orgId));
    ctx.metrics.gauge('scans', 'Stored scans by status, every organization', ['status'], () =>
      Promise.all(SCAN_STATUSES.map(async (status) => ({ labels: { status }, value: await scans.countWithStatus(status) }))));

    return {
      provides: service,
      async start() {
        // Cron configs: a sweep of the due minutes in every process (core/due-scan.ts), as Drift
        // Watch does; the first sweep moves configs of the old kind (one Agenda job each) over.
        sweepEveryPoll(ctx.scheduler, ctx.log, 'scans.scheduled-due', { migrate: () => service.migrateScheduled(), sweep: (now) => service.sweepScheduled(now) });
        // A job of the old kind locked before the move still runs its occurrence, claimed as the due scan claims it.
        // dueAt: the occurrence the job was locked for, not this process's clock (core/scheduler.ts).
        ctx.scheduler.define<{ orgId: string; repoConfigId: string }>(SCHEDULED_SCAN_JOB, async (data, _job, dueAt) => {
          await service.runScheduled(data.orgId, data.repoConfigId, dueAt);
        });
        ctx.scheduler.define<{ orgId: string; scanId: string }>(TIMEOUT_JOB, async (data) => {
          await service.expire(data.orgId, data.scanId);
        });
        // Leases lapse after 30 s (lease.ts): looked for every 15 s, so a scan waits at most 45 s.
        ctx.scheduler.define(LEASE_SWEEP_JOB, async () => { await service.sweepLeases(); });
        await ctx.scheduler.every('15 seconds', LEASE_SWEEP_JOB);
      },
      handlers: {
        list: ({ org, query, repositories }) => service.list(org.id, query, repositories),
        dashboard: ({ org, repositories }) => service.dashboard(org.id, repositories),
        trigger: ({ org, params, principal }) => service.trigger(org.id, params.repositoryConfigId, principal.userId ?? null),
        byRepository: ({ org, params, query }) => service.byRepository(org.id, params.repositoryConfigId, query),
        latest: ({ org, params }) => service.latest(org.id, params.repositoryConfigId),
        get: ({ org, params }) => service.get(org.id, params.scanId),
        details: ({ org, params }) => service.details(org.id, params.scanId),
        cancel: ({ org, params }) => service.cancel(org.id, params.scanId),
        remove: ({ org, params }) => service.remove(org.id, params.scanId),
        apiRates: async ({ org }) => ({ apiRates: await apiBudget.rates(org.id) }),
        setApiRates: async ({ org, body }) => ({ apiRates: await apiBudget.setRates(org.id, body.apiRates) }),
      },
    };
  },
});
