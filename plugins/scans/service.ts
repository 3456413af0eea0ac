// Scans: trigger (the scans-per-day limit's claim, exact under concurrency), cancel, delete, lists,
// dashboard, the scheduled-scan job and the timeout job. Results are recorded in record.ts.
// No HTTP here.
import { pageOf } from '../../core/schemas.ts';
import { CronExpressionParser } from 'cron-parser';
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { AppError, conflict, notFound } from '../../core/errors.ts';
import type { Hold } from '../../core/limits.ts';
import { narrow, type RepoScope } from '../../core/guards/repositories.ts';
import type { DriftService } from '../drifts/service.ts';
import type { RepoConfig } from '../repo-configs/store.ts';
import { SCHEDULED_SCAN_JOB, type RepoConfigService } from '../repo-configs/service.ts';
import { FINAL, type Scan, type ScanStatus, type ScanStore, type ScanTrigger } from './store.ts';
import type { ManagedStore } from './managed-store.ts';
import { createLimitConsumer } from '../../core/guards/rate-limit.ts';
import { scanView } from './schemas.ts';
import { createRecorder, type ResultAnnotator } from './record.ts';
import { createExecution } from './execution.ts';
import type { CredentialReaders, Endpoints } from './scan-job.ts';
import { isoDay } from '../drifts/trend.ts';

/** Agenda job the executor (detection-engine issue) defines; nothing here runs it. */
export const EXECUTE_JOB = 'scans.execute';
export const TIMEOUT_JOB = 'scans.timeout';
const DETAIL_DRIFTS = 1000;
/** Resource ids per managedBy read. */
const MANAGED_CHUNK = 1000;

interface Deps {
  scans: ScanStore;
  /** Managed resources per config (managed-store.ts). */
  managed: ManagedStore;
  drifts: DriftService;
  configs: RepoConfigService;
  /** Credential services of the plugins scans uses (scan inputs). */
  readers: CredentialReaders;
  timeoutMinutes: number;
  /** Endpoint overrides handed to every scan of each provider (moto, the fake ARM and Google APIs in tests and the demo). */
  endpoints: Endpoints;
}

/**
 * Routes addressing a scan or config by id are held to a CLI token's repositories by the
 * engine (manifest `repositories`) before the service runs: the service checks existence only.
 */
export function createScanService(ctx: AppContext, d: Deps) {
  const timeoutMs = d.timeoutMinutes * 60 * 1000;
  const annotators: ResultAnnotator[] = [];
  const consumeLimit = createLimitConsumer(ctx.redis.main);
  const recorder = createRecorder(ctx, {
    scans: d.scans, drifts: d.drifts.results, configs: d.configs, managed: d.managed, annotators,
    onRunning: (scan) => ctx.scheduler.at(new Date(scan.startedAt!.getTime() + timeoutMs), TIMEOUT_JOB, { orgId: scan.orgId, scanId: scan._id }),
  });
  const execution = createExecution(ctx, { scans: d.scans, configs: d.configs, readers: d.readers, results: recorder, endpoints: d.endpoints });

  async function loadConfig(orgId: string, id: string) {
    const c = await d.configs.find(orgId, id);
    if (!c) throw notFound('Repository config');
    return c;
  }
  async function load(orgId: string, id: string) {
    const s = await d.scans.get(orgId, id);
    if (!s) throw notFound('Scan');
    return s;
  }

  /**
   * The scans-per-day limit's claim (ctx.defineMeter take; the engine calls it for the trigger
   * route and runScheduled): a scan takes one of the day's (UTC) numbered quota keys through
   * the exactly-once primitive, so ten concurrent triggers on Free start three scans, not ten.
   * A deleted scan does not give its key back: the limit counts scans started. A trigger that
   * fails (unknown config) gives it back. Null: none is left today.
   */
  async function takeQuota(orgId: string, allowed: number): Promise<Hold | null> {
    const day = isoDay(new Date());
    // Scans started today without a key (on a plan without the limit, before a downgrade) count too.
    if (await d.scans.countDay(orgId, day) >= allowed) return null;
    for (let k = 0; k < allowed; k++) {
      const key = `scan-quota:${orgId}:${day}:${k}`;
      if (await ctx.once.claim(key, orgId)) return { commit: async () => undefined, abort: () => ctx.once.release(key) };
    }
    return null;
  }

  async function create(config: RepoConfig, triggeredBy: Scan['triggeredBy'], userId: string | null, trigger: ScanTrigger | null = null) {
    const now = new Date();
    const scan: Scan = {
      _id: newId(), orgId: config.orgId, repositoryConfig: config._id, repositoryName: config.repositoryName, branch: config.branch,
      status: 'pending', triggeredBy, triggeredByUser: userId, driftCount: 0, newDrifts: 0, resolvedDrifts: 0, error: null,
      createdAt: now, day: isoDay(now), startedAt: null, completedAt: null, ...(trigger ? { trigger } : {}),
    };
    await d.scans.insert(scan);
    // The executor picks the scan up from this job; if none does, the timeout job fails it.
    await ctx.scheduler.now(EXECUTE_JOB, { orgId: scan.orgId, scanId: scan._id });
    await ctx.scheduler.at(new Date(now.getTime() + timeoutMs), TIMEOUT_JOB, { orgId: scan.orgId, scanId: scan._id });
    await d.configs.recordScan(config.orgId, config._id, now, 'pending');
    return scan;
  }

  return {
    ...recorder,
    takeQuota,
    /** Platform-wide counts, for the admin routes and the metrics. */
    platform: {
      count: () => d.scans.countAll(),
      countPerOrg: (orgIds: string[]) => d.scans.countPerOrg(orgIds),
      countWithStatus: (status: ScanStatus) => d.scans.countWithStatus(status),
    },
    /** Claiming, inputs and results of scans for the built-in executor and runners (execution.ts). */
    execution,
    /** Completed scans since a time, as {repositoryConfig, completedAt} (the predictions plugin's features). */
    completedSince: async (orgId: string, since: Date) =>
      (await d.scans.completedSince(orgId, since)).map((s) => ({ repositoryConfig: s.repositoryConfig, completedAt: s.completedAt })),

    /**
     * Which of these cloud resource ids the organization's states manage (as the last completed
     * scan of each config read them): per id, every config and address managing it. Ids no state
     * manages are absent from the map. Chunked: any number of ids.
     */
    async managedBy(orgId: string, resourceIds: string[]) {
      const out = new Map<string, { repositoryConfigId: string; address: string; type: string; region: string | null }[]>();
      const ids = [...new Set(resourceIds.filter(Boolean))];
      for (let i = 0; i < ids.length; i += MANAGED_CHUNK) {
        for (const r of await d.managed.byResourceIds(orgId, ids.slice(i, i + MANAGED_CHUNK))) {
          if (!r.resourceId) continue;
          const list = out.get(r.resourceId) ?? [];
          list.push({ repositoryConfigId: r.repositoryConfigId, address: r.address, type: r.type, region: r.region });
          out.set(r.resourceId, list);
        }
      }
      return out;
    },
    /** Every resource id the organization's states manage (one streamed read). */
    async managedIds(orgId: string) {
      const out = new Set<string>();
      for await (const r of d.managed.ids(orgId)) if (r.resourceId) out.add(r.resourceId);
      return out;
    },
    /** The managed resources a config's last inventory holds, by address. */
    managedOf: (orgId: string, repositoryConfigId: string) => d.managed.ofConfig(orgId, repositoryConfigId),
    /** A scan of the config; `schedule` for scans started by the service itself (Drift Watch runs). */
    async trigger(orgId: string, configId: string, userId: string | null, triggeredBy: Scan['triggeredBy'] = 'manual') {
      return scanView(await create(await loadConfig(orgId, configId), triggeredBy, userId));
    },

    /** A plugin's notes on each completed scan's drifts before they are written (cloud-events: cause, noise). */
    attachAnnotator(annotator: ResultAnnotator) { annotators.push(annotator); },

    /**
     * A targeted re-check of some addresses of a config (triggeredBy event), through the same path
     * as any scan: the Scan rate limit of the organization, then the scans-per-day limit, then the
     * executor or a runner. `{retryAfterMs}` when the rate limit refuses it now; `{skipped}` when
     * the config is gone or the day's limit is reached (the next full scan reads the resources).
     */
    async triggerEvent(orgId: string, configId: string, trigger: ScanTrigger): Promise<{ scan: ReturnType<typeof scanView> } | { retryAfterMs: number } | { skipped: string }> {
      const config = await d.configs.find(orgId, configId);
      if (!config) return { skipped: 'repository config deleted' };
      const wait = await consumeLimit('scan', orgId);
      if (wait) return { retryAfterMs: wait };
      try {
        return { scan: scanView(await ctx.limits.within(orgId, 'scansPerDay', () => create(config, 'event', null, trigger))) };
      } catch (err) {
        if ((err as AppError).code === 'plan_limit') {
          ctx.log.warn({ orgId, repoConfigId: configId }, 'event re-check skipped: daily scan limit reached');
          return { skipped: 'daily scan limit reached' };
        }
        throw err;
      }
    },

    /** The scheduled-scan job: one scan per config and cron tick, however many processes run the job. */
    async runScheduled(orgId: string, repoConfigId: string, tick: Date) {
      const config = await d.configs.find(orgId, repoConfigId);
      if (!config || !config.scheduleCron) {
        // The config (or its organization) was deleted, or its schedule removed: stop the job.
        await ctx.scheduler.cancel({ name: SCHEDULED_SCAN_JOB, data: { repoConfigId } });
        return null;
      }
      // The cron's own fire time at or before the run, not the run's clock: two processes running
      // the same tick either side of a minute boundary still name the same tick.
      const minute = Math.floor(cronTickAtOrBefore(config.scheduleCron, tick).getTime() / 60000);
      if (!(await ctx.once.claim(`scheduled-scan:${repoConfigId}:${minute}`, orgId))) return null;
      try {
        return scanView(await ctx.limits.within(orgId, 'scansPerDay', () => create(config, 'schedule', null)));
      } catch (err) {
        if ((err as AppError).code === 'plan_limit') {
          ctx.log.warn({ orgId, repoConfigId }, 'scheduled scan skipped: daily scan limit reached');
          return null;
        }
        throw err;
      }
    },

    /** The timeout job: a scan still pending or running past the timeout fails, once. */
    async expire(orgId: string, scanId: string, now = new Date()) {
      const scan = await d.scans.get(orgId, scanId);
      if (!scan || FINAL.includes(scan.status)) return null;
      const minutes = d.timeoutMinutes;
      if (scan.status === 'pending' && now.getTime() - scan.createdAt.getTime() >= timeoutMs) {
        return recorder.recordScanResult(orgId, scanId, { status: 'failed', error: `No executor picked up the scan within ${minutes} minutes` });
      }
      if (scan.status === 'running' && scan.startedAt && now.getTime() - scan.startedAt.getTime() >= timeoutMs) {
        return recorder.recordScanResult(orgId, scanId, { status: 'failed', error: `The scan did not finish within ${minutes} minutes` });
      }
      // Not due yet (it started running after this job was planned): look again when it is due.
      // The job planned when it started running normally covers it; this one is for when that
      // write failed. A second expiry of a finished scan changes nothing.
      if (scan.status === 'running' && scan.startedAt) await ctx.scheduler.at(new Date(scan.startedAt.getTime() + timeoutMs), TIMEOUT_JOB, { orgId, scanId });
      return null;
    },

    async cancel(orgId: string, scanId: string) {
      const scan = await load(orgId, scanId);
      if (scan.status !== 'pending' && scan.status !== 'running') throw conflict(`Only a pending or running scan can be cancelled; this one is ${scan.status}`);
      const completedAt = new Date();
      // As in record.ts: the scan's own status last, and the claim given back if a write fails.
      const cancelled = await ctx.once.runOnce(`scan:${scanId}:final`, orgId, async () => {
        await d.configs.recordScan(orgId, scan.repositoryConfig, completedAt, 'cancelled');
        await d.scans.update(orgId, scanId, { status: 'cancelled', completedAt });
      });
      if (!cancelled.won) {
        const now = await d.scans.get(orgId, scanId);
        throw conflict(`Only a pending or running scan can be cancelled; this one is ${now?.status ?? 'gone'}`);
      }
      await ctx.scheduler.cancel({ name: EXECUTE_JOB, data: { scanId } });
      return scanView({ ...scan, status: 'cancelled', completedAt });
    },

    async remove(orgId: string, scanId: string) {
      const scan = await load(orgId, scanId);
      if (scan.status === 'pending' || scan.status === 'running') throw conflict(`The scan is ${scan.status}; cancel it before deleting it`);
      // Drifts first: a crash in between leaves the scan, and deleting it again finishes.
      const { deletedCount } = await d.drifts.removeByScan(orgId, scanId);
      await d.scans.remove(orgId, scanId);
      return { message: `Scan deleted with the ${deletedCount} ${deletedCount === 1 ? 'drift' : 'drifts'} it detected` };
    },

    /** `repositories`: a CLI token's configs (undefined: every config of the organization). */
    async list(orgId: string, q: { page: number; limit: number; status?: ScanStatus }, repositories: RepoScope) {
      const { rows, total } = await d.scans.page(orgId, { status: q.status, repositoryConfig: repositories }, (q.page - 1) * q.limit, q.limit);
      return pageOf(rows.map(scanView), q, total);
    },
    async byRepository(orgId: string, configId: string, q: { page: number; limit: number }) {
      await loadConfig(orgId, configId);
      const { rows } = await d.scans.page(orgId, { repositoryConfig: [configId] }, (q.page - 1) * q.limit, q.limit);
      return rows.map(scanView);
    },
    async latest(orgId: string, configId: string) {
      await loadConfig(orgId, configId);
      const s = await d.scans.latest(orgId, configId);
      return s ? scanView(s) : null;
    },
    get: async (orgId: string, scanId: string) => scanView(await load(orgId, scanId)),
    async details(orgId: string, scanId: string) {
      const scan = await load(orgId, scanId);
      return { ...scanView(scan), drifts: await d.drifts.scanDrifts(orgId, scanId, DETAIL_DRIFTS) };
    },
    async dashboard(orgId: string, repositories: RepoScope) {
      const repos = narrow(repositories);
      const [totalScans, totalDrifts, resolvedDrifts, activeRepositories, recent, driftTrendRows] = await Promise.all([
        d.scans.count(orgId, { repositoryConfig: repos }),
        d.drifts.count(orgId, { repositoryConfig: repos }),
        d.drifts.count(orgId, { repositoryConfig: repos, status: ['resolved'] }),
        repos ? d.configs.configsOf(orgId, repos).then((r) => r.length) : d.configs.countActive(orgId),
        d.scans.recent(orgId, { repositoryConfig: repos }, 5),
        d.drifts.trend(orgId, repos),
      ]);
      return { totalScans, totalDrifts, resolvedDrifts, activeRepositories, recentScans: recent.map(scanView), driftTrend: driftTrendRows };
    },
  };
}
export type ScanService = ReturnType<typeof createScanService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { scans: ScanService }
}

/** The latest time at or before `at` when `cron` fires (UTC); `at` itself when the cron cannot be read. */
export function cronTickAtOrBefore(cron: string, at: Date): Date {
  try {
    // prev() is strictly before currentDate: start a second later so a tick exactly at `at` counts.
    return CronExpressionParser.parse(cron, { tz: 'UTC', currentDate: new Date(at.getTime() + 1000) }).prev().toDate();
  } catch {
    return at;
  }
}
