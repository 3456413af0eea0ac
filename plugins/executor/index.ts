// The built-in scan executor: defines the scans plugin's 'scans.execute' Agenda job and runs
// each scan whose config names no runner labels (plugins/executor/service.ts). No routes.
// Settings (core/config.ts): EXECUTOR_CONCURRENCY (scans run at once by one process),
// DRIFT_CLOUD_A_ENDPOINT (cloud_a endpoint override: moto in tests and the demo),
// EXECUTOR_LOCAL_SOURCES (whether configs may point at this host's files), EXECUTOR_ALLOWED_HOSTS
// (internal git hosts its clones may reach: clone-guard.ts), SCAN_TIMEOUT_MINUTES,
// DRIFT_CLOUD_CA_FILE (extra CA certificates trusted by cloud_b and cloud_c API calls),
// EXECUTOR_PROVIDER_PLANS and EXECUTOR_PLAN_PROGRAMS (whether scans here may run a provider
// refresh-only plan, and whether it may run programs: docs/executor.md).
import { readFileSync } from 'node:fs';
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/executor.ts';
import { EXECUTE_JOB } from '../scans/service.ts';
import { createCloneGuard } from './clone-guard.ts';
import { createExecutor } from './service.ts';

export default definePlugin({
  manifest,
  needs: ['scans'],
  build(ctx, deps) {
    const {
      EXECUTOR_CONCURRENCY, DRIFT_CLOUD_A_ENDPOINT, EXECUTOR_LOCAL_SOURCES, SCAN_TIMEOUT_MINUTES, DRIFT_CLOUD_CA_FILE, EXECUTOR_ALLOWED_HOSTS, SCM_WEB_URL,
      EXECUTOR_PROVIDER_PLANS, EXECUTOR_PLAN_PROGRAMS,
    } = ctx.config;
    const executor = createExecutor(ctx, deps.scans, {
      concurrency: EXECUTOR_CONCURRENCY,
      endpoint: DRIFT_CLOUD_A_ENDPOINT,
      localSources: EXECUTOR_LOCAL_SOURCES,
      providerPlans: EXECUTOR_PROVIDER_PLANS,
      allowPlanPrograms: EXECUTOR_PLAN_PROGRAMS,
      timeoutMs: SCAN_TIMEOUT_MINUTES * 60_000,
      budgetStore: deps.scans.apiBudget.store,
      cloneGuard: createCloneGuard({ allowedHosts: EXECUTOR_ALLOWED_HOSTS, localSources: EXECUTOR_LOCAL_SOURCES, scmWebUrl: SCM_WEB_URL }),
      ...(DRIFT_CLOUD_CA_FILE ? { ca: readFileSync(DRIFT_CLOUD_CA_FILE, 'utf8') } : {}),
    });
    ctx.scheduler.define<{ orgId: string; scanId: string }>(EXECUTE_JOB, async (data) => {
      await executor.execute(data.orgId, data.scanId);
    }, { concurrency: EXECUTOR_CONCURRENCY });

    return {
      provides: executor,
      handlers: {},
      stop: () => executor.stop(),
    };
  },
});
