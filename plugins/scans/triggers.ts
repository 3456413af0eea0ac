// Starting scans: a user's trigger, the scheduled scans (the due scan of cron configs) and the
// event re-check (cloud-events), each through the scans-per-day limit's claim (exact under
// concurrency), and the scan record with its executor and timeout jobs.
import { CronExpressionParser } from 'cron-parser';
import type { AppContext } from '../../core/context.ts';
import { createDueScan } from '../../core/due-scan.ts';
import { slotKey } from '../../core/once.ts';
import { newId } from '../../core/crypto.ts';
import { notFound, type AppError } from '../../core/errors.ts';
import type { Hold } from '../../core/limits.ts';
import { createLimitConsumer } from '../../core/guards/rate-limit.ts';
import { isoDay } from '../drifts/trend.ts';
import type { RepoConfig } from '../repo-configs/types.ts';
import { dueMinuteOf, SCHEDULED_SCAN_JOB, type RepoConfigService } from '../repo-configs/service.ts';
import { scanView } from './schemas.ts';
import type { Scan, ScanStore, ScanTrigger } from './store.ts';

/** Agenda job the executor (detection-engine issue) defines; nothing here runs it. */
export const EXECUTE_JOB = 'scans.execute';
export const TIMEOUT_JOB = 'scans.timeout';

interface Deps { scans: ScanStore; configs: RepoConfigService; timeoutMs: number }

export function createTriggers(ctx: AppContext, d: Deps) {
  const timeoutMs = d.timeoutMs;
  const consumeLimit = createLimitConsumer(ctx.redis.main);
  async function loadConfig(orgId: string, id: string) {
    const c = await d.configs.find(orgId, id);
    if (!c) throw notFound('Repository config');
    return c;
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

  /**
   * A scheduled scan of an occurrence already claimed (`scheduled-scan:<id>:<slot>`): under the
   * scans-per-day limit (reached: skipped, the occurrence is over). Any other failure gives the
   * claim back and throws, so the next sweep tries again: no scan exists yet.
   */
  async function startScheduled(config: RepoConfig, unclaim: () => Promise<void>) {
    try {
      return scanView(await ctx.limits.within(config.orgId, 'scansPerDay', () => create(config, 'schedule', null)));
    } catch (err) {
      if ((err as AppError).code === 'plan_limit') {
        ctx.log.warn({ orgId: config.orgId, repoConfigId: config._id }, 'scheduled scan skipped: daily scan limit reached');
        return null;
      }
      await unclaim().catch((e: unknown) => ctx.log.error({ err: e, repoConfigId: config._id }, 'could not give back the claim of a scheduled scan that did not start'));
      throw err;
    }
  }

  // Cron configs fall due by the thousand in one minute: swept by due minute in every process
  // running jobs (core/due-scan.ts: equality reads, keyset pages, one bulk claim per page of
  // `scheduled-scan:<id>:<minute>` before any work, one bulk write moving them on).
  const due = createDueScan<RepoConfig>({
    kind: 'scheduled-scan', collection: d.configs.due.collection, once: ctx.once, log: ctx.log,
    cronOf: (c) => (dueMinuteOf(c) === null ? null : c.scheduleCron),
    run: async (c, slot) => { await startScheduled(c, () => ctx.once.release(slotKey('scheduled-scan', c._id, slot))); },
  });

  return {
    takeQuota,
    /** One sweep of the configs' due minutes (the scans plugin's loop; tests race it across processes). */
    sweepScheduled: (now?: Date, catchUp?: boolean) => due.sweep(now, catchUp),
    /** Configs stored before the due scan get their due minute; their Agenda jobs go (a process's first sweep). */
    migrateScheduled: () => d.configs.due.migrate(),
    /** A scan of the config; `schedule` for scans started by the service itself (Drift Watch runs). */
    async trigger(orgId: string, configId: string, userId: string | null, triggeredBy: Scan['triggeredBy'] = 'manual') {
      return scanView(await create(await loadConfig(orgId, configId), triggeredBy, userId));
    },

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

    /**
     * A scheduled scan of the config's cron tick at or before `tick` (the admin run, and an Agenda
     * job of the old kind locked before its process's first sweep removed it): the same claim as
     * the due scan's, so neither makes a second scan of a tick the other started.
     */
    async runScheduled(orgId: string, repoConfigId: string, tick: Date) {
      const config = await d.configs.find(orgId, repoConfigId);
      if (!config || !config.scheduleCron) {
        // The config (or its organization) was deleted, or its schedule removed: stop an old job.
        await ctx.scheduler.cancel({ name: SCHEDULED_SCAN_JOB, data: { repoConfigId } });
        return null;
      }
      const slot = cronTickAtOrBefore(config.scheduleCron, tick);
      if (!(await ctx.once.claimSlot('scheduled-scan', repoConfigId, slot, orgId))) return null;
      const scan = await startScheduled(config, () => ctx.once.release(slotKey('scheduled-scan', repoConfigId, slot)));
      await d.configs.due.moveOn(config, slot);
      return scan;
    },

  };
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
