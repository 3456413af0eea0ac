// Running a scan, wherever it runs: the one module that claims a pending scan, builds its
// input (scan-job.ts) and records what the engine found, for the built-in executor (in this
// process) and for self-hosted runners (their job routes). Offered as `execution` in the scans
// service.
//
// Exactly once (DESIGN.md): each claim is a lease generation (lease.ts), taken by a unique-index
// insert; the holder's reports carry it, and a lease whose holder went quiet is handed back to
// pending by the sweep (sweep.ts) or the runners' offline sweep, then claimed again.
import type { AppContext } from '../../core/context.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import type { DetectedDrift, InventoryItem } from '../../runner-agent/src/engine/index.ts';
import type { RecordOutcome, ScanResults } from './record.ts';
import { isForRunners, labelsMatch, scanInputOrFail, toReportedDrifts, type CredentialReaders, type Endpoints, type ScanJobInput } from './scan-job.ts';
import type { Scan, ScanStore } from './store.ts';
import type { RepoConfig } from '../repo-configs/types.ts';
import { EXECUTE_JOB } from './triggers.ts';
import { NOT_COMPARED_MAX, PLAN_REASON_MAX, ProviderPlan, ScanStats, type ScanResult } from './schemas.ts';
import { Value } from 'typebox/value';
import { executorHolder, LEASE_MS, runnerHolder, type Leases } from './lease.ts';

/** Pending scans read per page by a runner poll (keyset pages, as many as it takes: no cap on configs or scans). */
const PAGE = 200;

interface Deps {
  scans: ScanStore;
  configs: Pick<RepoConfigService, 'find' | 'configsOf'>;
  readers: CredentialReaders;
  results: ScanResults;
  endpoints: Endpoints;
  leases: Leases;
}

/** What the built-in executor may do with a scan. */
export type ExecutorClaim =
  | { kind: 'gone' | 'not-pending' | 'runners' | 'claimed' | 'failed' }
  | { kind: 'run'; input: ScanJobInput; gen: number };

/** A scan as a runner receives it (POST /api/runners/jobs). */
export interface RunnerJob { _id: string; type: 'scan'; repositoryConfig: string; repositoryName: string; branch: string; scan: ScanJobInput }

/** Which scans runners hold (the runners plugin's runner_jobs), as the claim needs it. */
export interface RunnerHolds {
  /** Records that the runner holds the scan under lease generation `gen` (written once the lease is won; replaces an earlier holder's). */
  hold(orgId: string, runnerId: string, scanId: string, gen: number): Promise<void>;
  /** The held scan ended here without the runner (failed on its config, cancelled meanwhile). */
  lost(orgId: string, scanId: string): Promise<void>;
  /** Undoes hold(): the step after the claim failed, and the claim is given back. */
  drop(orgId: string, scanId: string): Promise<void>;
}

const count = (n: unknown) => (Number.isInteger(n) && (n as number) >= 0 ? (n as number) : null);

/** The engine's comparedBy counts, or null (a runner older than hybrid scans, or another shape). */
function comparedByOf(v: unknown): ScanStats['comparedBy'] {
  const c = v as { native?: unknown; provider?: unknown } | null | undefined;
  const native = count(c?.native);
  const provider = count(c?.provider);
  return native !== null && provider !== null ? { native, provider } : null;
}

/** The engine's providerPlan within the record's bounds (binary and reason cut, duration rounded), or null. */
function providerPlanOf(v: unknown): ScanStats['providerPlan'] {
  const p = v as Record<string, unknown> | null | undefined;
  if (!p || typeof p !== 'object') return null;
  const plan = {
    ran: p.ran, binary: typeof p.binary === 'string' ? p.binary.slice(0, 100) : p.binary ?? null, targets: p.targets, compared: p.compared,
    durationMs: typeof p.durationMs === 'number' ? Math.round(p.durationMs) : p.durationMs,
    ...(typeof p.reason === 'string' ? { reason: p.reason.slice(0, PLAN_REASON_MAX) } : {}),
  };
  return Value.Check(ProviderPlan, plan) ? plan : null;
}

/**
 * The scan record's stats from an engine's outcome stats (runner-agent ScanStats): compared and
 * notCompared, the largest rows kept within the bound, how many instances each path compared and
 * the provider plan's summary (null when the engine sent none or another shape); undefined when
 * the engine sent no notCompared (a runner older than it) or not in the expected shape.
 */
export function scanStatsOf(resourcesScanned: unknown, engine: unknown): ScanStats | undefined {
  const e = engine as { notCompared?: unknown; comparedBy?: unknown; providerPlan?: unknown; throttledCalls?: unknown; waitedMs?: unknown } | null | undefined;
  const rows = e?.notCompared;
  if (!Array.isArray(rows)) return undefined;
  const stats = {
    compared: count(resourcesScanned),
    notCompared: rows.slice(0, NOT_COMPARED_MAX),
    comparedBy: comparedByOf(e?.comparedBy),
    providerPlan: providerPlanOf(e?.providerPlan),
    // The API budget's figures (absent from runners older than it).
    ...(count(e?.throttledCalls) !== null ? { throttledCalls: count(e?.throttledCalls)! } : {}),
    ...(typeof e?.waitedMs === 'number' && e.waitedMs >= 0 ? { waitedMs: Math.round(Math.min(e.waitedMs, 2 ** 31)) } : {}),
  };
  return Value.Check(ScanStats, stats) ? stats : undefined;
}

/**
 * An engine's report: the running mark, its drifts (and the states' inventory and what it did
 * not compare, absent from old runners), or its failure.
 */
export type EngineReport =
  | { status: 'running' }
  | { status: 'completed'; drifts: DetectedDrift[]; inventory?: InventoryItem[]; stats?: ScanStats }
  | { status: 'failed'; error: string };

/** An engine's report as the scan result the recorder takes (the engine's diff list kept under `changes`). */
function resultOf(report: EngineReport): ScanResult {
  if (report.status !== 'completed') return report;
  return {
    status: 'completed', drifts: toReportedDrifts(report.drifts), ...(report.inventory ? { inventory: report.inventory } : {}),
    ...(report.stats ? { stats: report.stats } : {}),
  };
}

/** Held by someone now: leased to a holder who has not yet had LEASE_MS to start it. */
const leased = (scan: Scan, now: number) => Boolean(scan.lease?.holder) && now - scan.lease!.at.getTime() < LEASE_MS;

export function createExecution(ctx: AppContext, d: Deps) {
  const jobOf = (scan: Scan, input: ScanJobInput): RunnerJob => ({
    _id: scan._id, type: 'scan', repositoryConfig: scan.repositoryConfig, repositoryName: scan.repositoryName, branch: scan.branch, scan: input,
  });

  /** Claim order: the oldest first (fairness), then the rest at random so concurrent pollers spread out. */
  function order(list: Scan[]): Scan[] {
    const [first, ...rest] = list;
    for (let i = rest.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [rest[i], rest[j]] = [rest[j], rest[i]];
    }
    return first ? [first, ...rest] : [];
  }

  /** The runner's lease on one scan, its hold record and the move to running; null when another took it or it failed here. */
  async function claimOne(runner: { _id: string; orgId: string }, holds: RunnerHolds, scan: Scan, config: RepoConfig): Promise<RunnerJob | null> {
    const { orgId } = runner;
    const gen = await d.leases.take(scan, runnerHolder(runner._id));
    if (gen === null) return null;
    try {
      await holds.hold(orgId, runner._id, scan._id, gen);
      const input = await scanInputOrFail(d.readers, d.results, config, scan._id, d.endpoints, undefined, scan.trigger?.addresses);
      if (!input) {
        // Nothing a runner could do with it: the scan failed here, and the poll goes on.
        await holds.lost(orgId, scan._id);
        return null;
      }
      const started = await d.results.recordScanResult(orgId, scan._id, { status: 'running' }, gen);
      if (started.scan.status !== 'running') {
        await holds.lost(orgId, scan._id); // cancelled or timed out since the read
        return null;
      }
      return jobOf(scan, input);
    } catch (err) {
      // Given back at once, so the next poll claims it again (the poll's pace is the retry's).
      await holds.drop(orgId, scan._id);
      await d.leases.handBack(orgId, scan._id, gen);
      throw err;
    }
  }

  return {
    /**
     * The built-in executor's claim of one scan (Agenda may run its job twice, in two
     * processes: one takes the lease). `check` may refuse the input with a ConfigProblem (the
     * scan then fails). On 'run' the scan is running under lease generation `gen`, which the
     * executor renews (lease.ts) and its result carries.
     */
    async claimForExecutor(orgId: string, scanId: string, check?: (input: ScanJobInput) => void): Promise<ExecutorClaim> {
      const scan = await d.scans.get(orgId, scanId);
      if (!scan) return { kind: 'gone' };
      if (scan.status !== 'pending') return { kind: 'not-pending' };
      const config = await d.configs.find(orgId, scan.repositoryConfig);
      if (!config) {
        // Deleting a config removes its scans; a scan left without one cannot run.
        await d.results.recordScanResult(orgId, scanId, { status: 'failed', error: 'The repository config of this scan was deleted' });
        return { kind: 'failed' };
      }
      // Left pending for a self-hosted runner with matching labels (POST /api/runners/jobs).
      if (isForRunners(config)) return { kind: 'runners' };
      if (leased(scan, Date.now())) return { kind: 'claimed' };
      const gen = await d.leases.take(scan, executorHolder);
      if (gen === null) return { kind: 'claimed' };
      try {
        // A config that cannot be scanned fails the scan from pending: it never started.
        const input = await scanInputOrFail(d.readers, d.results, config, scanId, d.endpoints, check, scan.trigger?.addresses);
        if (!input) return { kind: 'failed' };
        const started = await d.results.recordScanResult(orgId, scanId, { status: 'running' }, gen);
        if (started.scan.status !== 'running') return { kind: 'not-pending' }; // cancelled in between
        return { kind: 'run', input, gen };
      } catch (err) {
        // Given back at once for the next run, and a run planned after LEASE_MS (not at once: a
        // failure that persists would otherwise loop).
        if (await d.leases.handBack(orgId, scanId, gen)) await ctx.scheduler.at(new Date(Date.now() + LEASE_MS), EXECUTE_JOB, { orgId, scanId });
        throw err;
      }
    },

    /**
     * One pending scan of the runner's organization whose config's labels the runner carries,
     * leased to it, held, and moved to running; null when there is none. The organization's
     * pending scans are read oldest first a page at a time (keyset on an index) with the configs
     * of each page, so neither the number of configs nor of queued scans is capped.
     */
    async claimForRunner(runner: { _id: string; orgId: string; labels: readonly string[] }, holds: RunnerHolds): Promise<RunnerJob | null> {
      const { orgId } = runner;
      const now = Date.now();
      let after: Scan | null = null;
      for (;;) {
        const page: Scan[] = await d.scans.pendingAfter(orgId, after, PAGE);
        if (!page.length) return null;
        after = page[page.length - 1];
        const free = page.filter((s) => !leased(s, now));
        const ids = [...new Set(free.map((s) => s.repositoryConfig))];
        const byId = new Map((ids.length ? await d.configs.configsOf(orgId, ids) : []).filter((c) => labelsMatch(c, runner.labels)).map((c) => [c._id, c]));
        for (const scan of order(free.filter((s) => byId.has(s.repositoryConfig)))) {
          const job = await claimOne(runner, holds, scan, byId.get(scan.repositoryConfig)!);
          if (job) return job;
        }
      }
    },

    /**
     * A scan a runner holds, handed out again (its claim answer never reached the agent):
     * null when it is no longer running under that lease or its input cannot be built (then recorded failed).
     */
    async redeliver(orgId: string, scanId: string, gen: number): Promise<RunnerJob | null> {
      const scan = await d.scans.get(orgId, scanId);
      const config = scan?.status === 'running' && (scan.lease?.gen ?? 0) === gen ? await d.configs.find(orgId, scan.repositoryConfig) : null;
      if (!scan || !config) return null;
      const input = await scanInputOrFail(d.readers, d.results, config, scan._id, d.endpoints, undefined, scan.trigger?.addresses);
      return input ? jobOf(scan, input) : null;
    },

    /** Whether the holder of lease `gen` should go on (false: cancelled, ended or handed to another); renews it. */
    renew: (orgId: string, scanId: string, gen: number) => d.leases.renew(orgId, scanId, gen),
    /** A scan whose holder went away (a runner gone offline or deleted), back to pending for the next claim. */
    async handBack(orgId: string, scanId: string, gen: number): Promise<boolean> {
      const back = await d.leases.handBack(orgId, scanId, gen);
      if (back) await ctx.scheduler.now(EXECUTE_JOB, { orgId, scanId });
      return back;
    },

    /** What the in-process engine reports, recorded as the scan's result (validated there: no route checked it); `gen`: the lease it ran under. */
    record: (orgId: string, scanId: string, report: EngineReport, gen?: number): Promise<RecordOutcome> => d.results.recordScanResult(orgId, scanId, resultOf(report), gen),
    /** What a runner reports, its body already validated by its route's schema (POST /api/runners/jobs/status): recorded as it is. */
    recordChecked: (orgId: string, scanId: string, report: EngineReport, gen?: number): Promise<RecordOutcome> => d.results.recordChecked(orgId, scanId, resultOf(report), gen),
  };
}
export type Execution = ReturnType<typeof createExecution>;
