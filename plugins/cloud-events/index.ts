// Handlers of the cloud-events routes (manifests/cloud-events.ts), the check and retention
// jobs, and the notes on every completed scan's drifts (cause, noise) attached to the drifts
// plugin's annotator hook (drifts.attachAnnotator, run by drifts.reconcile).
import { ConfigError } from '../../core/config.ts';
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/cloud-events.ts';
import { DEFAULT_RETENTION } from '../audit-logs/retention.ts';
import { createAnnotator, NOISE_THRESHOLD } from './annotate.ts';
import { CHECK_JOB, createChecks, DEFAULT_DEBOUNCE_SECONDS } from './checks.ts';
import { createCloudEventService, RETENTION_JOB } from './service.ts';
import { createCloudEventStore } from './store.ts';

const RETENTION_EVERY = '1 hour';

/** A whole number from the environment within bounds, else the default; a bad value stops the boot naming it. */
function setting(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`Configuration error: ${name}=${raw} must be a whole number from ${min} to ${max}`);
  return n;
}

export default definePlugin({
  manifest,
  needs: ['scans', 'drifts'],
  uses: ['audit-logs'],
  build(ctx, deps) {
    const store = createCloudEventStore(ctx.db);
    const debounceSeconds = setting('CLOUD_EVENTS_DEBOUNCE_SECONDS', DEFAULT_DEBOUNCE_SECONDS, 0, 3600);
    const threshold = setting('CLOUD_EVENTS_NOISE_THRESHOLD', NOISE_THRESHOLD, 2, 1000);
    const checks = createChecks(ctx, store, deps.scans, debounceSeconds * 1000);
    const service = createCloudEventService(ctx, {
      store, checks, retentionDays: (deps['audit-logs']?.policy ?? DEFAULT_RETENTION).days,
    });
    // Drifts offer the hook (cloud-events needs scans, which need drifts: drifts cannot use this plugin).
    deps.drifts.attachAnnotator(createAnnotator(ctx, store, threshold));
    ctx.onOrgDelete((orgId) => service.removeOrg(orgId));
    ctx.scheduler.define<{ orgId: string; repositoryConfigId: string }>(CHECK_JOB, async (data) => {
      await checks.run(data.orgId, data.repositoryConfigId);
    });
    ctx.scheduler.define(RETENTION_JOB, async () => {
      const deleted = await service.purge();
      if (deleted) ctx.log.info({ deleted }, 'cloud events retention: old events deleted');
    });

    return {
      provides: { ...service, checks },
      async start() {
        await ctx.scheduler.every(RETENTION_EVERY, RETENTION_JOB, {});
      },
      handlers: {
        createToken: ({ org, body, principal }) => service.createToken(org.id, body.name, principal.userId ?? null),
        listTokens: ({ org }) => service.listTokens(org.id),
        async revokeToken({ org, params }) { await service.revokeToken(org.id, params.id); },
        ingest: ({ org, body }) => service.ingest(org.id, body),
        list: ({ org, query }) => service.list(org.id, query),
        noiseRules: ({ org }) => service.noiseRules(org.id),
        setNoiseRule: ({ org, params, body }) => service.setNoiseRule(org.id, params.id, body.enabled),
      },
    };
  },
});

declare module '../../core/plugin.ts' {
  interface PluginServices { 'cloud-events': ReturnType<typeof createCloudEventService> & { checks: ReturnType<typeof createChecks> } }
}
