// Scans: the scans service composed of its concerns, each in its own file: starting scans
// (triggers.ts: trigger, schedule, event re-check, the scans-per-day claim), recording results
// (record.ts; drifts.reconcile decides what they change), running them (execution.ts: the
// built-in executor and runners), reads (reads.ts), and here the timeout job, cancel and
// delete. No HTTP here.
import type { AppContext } from '../../core/context.ts';
import { conflict, notFound } from '../../core/errors.ts';
import type { DriftService } from '../drifts/service.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import { FINAL, type ScanStore } from './store.ts';
import type { ManagedStore } from './managed-store.ts';
import { scanView } from './schemas.ts';
import { createRecorder, type ScanResults } from './record.ts';
import { createExecution } from './execution.ts';
import { createManagedReads, createScanReads } from './reads.ts';
import { createTriggers, EXECUTE_JOB, TIMEOUT_JOB } from './triggers.ts';
import type { CredentialReaders, Endpoints } from './scan-job.ts';
import { createLeases } from './lease.ts';
import { createSweep } from './sweep.ts';
import type { ApiBudgetService } from './api-budget.ts';

export { cronTickAtOrBefore, EXECUTE_JOB, TIMEOUT_JOB } from './triggers.ts';

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
  /** The cloud API budget: the shared Redis buckets and each organization's rates (api-budget.ts). */
  apiBudget: ApiBudgetService;
}

/** The timeout job, cancel and delete: the ends of a scan that are not an executor's result. */
function createScanEnds(ctx: AppContext, d: Deps, recorder: ScanResults, timeoutMs: number) {
  async function load(orgId: string, id: string) {
    const s = await d.scans.get(orgId, id);
    if (!s) throw notFound('Scan');
    return s;
  }
  return {
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

  };
}

/**
 * Routes addressing a scan or config by id are held to a CLI token's repositories by the
 * engine (manifest `repositories`) before the service runs: the service checks existence only.
 */
export function createScanService(ctx: AppContext, d: Deps) {
  const timeoutMs = d.timeoutMinutes * 60 * 1000;
  const recorder = createRecorder(ctx, {
    scans: d.scans, drifts: d.drifts, configs: d.configs, managed: d.managed,
    onRunning: (scan) => ctx.scheduler.at(new Date(scan.startedAt!.getTime() + timeoutMs), TIMEOUT_JOB, { orgId: scan.orgId, scanId: scan._id }),
  });
  const execution = createExecution(ctx, { scans: d.scans, configs: d.configs, readers: d.readers, results: recorder, endpoints: d.endpoints, leases: createLeases(ctx, d.scans) });
  return {
    /** The cloud API budget (api-budget.ts): the executor's and discovery's store, the rates routes. */
    apiBudget: d.apiBudget,
    /** A scan's result, from any executor, validated here (record.ts). */
    recordScanResult: recorder.recordScanResult,
    /** Claiming, inputs and results of scans for the built-in executor and runners (execution.ts). */
    execution,
    /** The lease sweep and the re-routing of a config's waiting scans (sweep.ts). */
    ...createSweep(ctx, d.scans, execution),
    ...createTriggers(ctx, { scans: d.scans, configs: d.configs, timeoutMs }),
    ...createScanEnds(ctx, d, recorder, timeoutMs),
    ...createScanReads(d),
    ...createManagedReads(d),
  };
}
export type ScanService = ReturnType<typeof createScanService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { scans: ScanService }
}
