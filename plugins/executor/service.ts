// The built-in executor: runs the scans no self-hosted runner takes (configs without
// runnerLabels) in this process, through the same detection engine the runner agent uses.
//
// Agenda may run a job twice (its lock is a findOneAndUpdate, not atomic on the embedded
// database, and a lock can expire while a long scan runs), so the one-time step is decided by
// the scans plugin's lease (plugins/scans/lease.ts): one process runs the scan, every other run
// returns. While the engine runs the lease is renewed every leaseRenewMs; a renewal that finds
// the scan cancelled, or handed to another process (this one was presumed dead), aborts the
// engine (its readers and plan steps take the same AbortSignal). The result carries the lease's
// generation: a late one is refused. Recording a result is itself idempotent.
import type { AppContext } from '../../core/context.ts';
import type { ScanService } from '../scans/service.ts';
import { ConfigProblem, failureMessage } from '../scans/scan-job.ts';
import { scanStatsOf } from '../scans/execution.ts';
import { RENEW_MS } from '../scans/lease.ts';
import { detectDrift, type BucketStore, type CloneGuard, type ScanInput, type ScanOutcome } from '../../runner-agent/src/engine/index.ts';
export interface ExecutorSettings {
  concurrency: number;
  endpoint: string | undefined;
  /** Extra CA certificates (PEM) for cloud_b and cloud_c API calls (DRIFT_CLOUD_CA_FILE). */
  ca?: string;
  /**
   * Whether a config may point the executor at this host's files (an absolute path or file://
   * URL). Off in production: a tenant must not read the service's disk; tests and the demo turn it on.
   */
  localSources: boolean;
  /**
   * EXECUTOR_PROVIDER_PLANS: whether scans here may run a tofu/terraform refresh-only plan for what
   * no native reader compares (off: a plan evaluates the customer's data sources on this host).
   */
  providerPlans: boolean;
  /** EXECUTOR_PLAN_PROGRAMS: whether such a plan may run `data "external"` and provisioners. */
  allowPlanPrograms: boolean;
  /** The engine is stopped after this long (the scans plugin's timeout job fails the scan too). */
  timeoutMs: number;
  /** How often a running scan's lease is renewed and its cancel looked for (lease.ts RENEW_MS by default). */
  leaseRenewMs?: number;
  /** Injected in tests; detectDrift otherwise. */
  detect?: (input: ScanInput) => Promise<ScanOutcome>;
  /** The cloud API budget's buckets (the scans plugin's Redis store: shared by every process); absent: this process's. */
  budgetStore?: BucketStore;
  /** What a clone may reach from here (clone-guard.ts); absent only in tests that inject `detect`. */
  cloneGuard?: CloneGuard;
}

export type ExecuteOutcome = 'ran' | 'failed' | 'stopped' | 'skipped:gone' | 'skipped:not-pending' | 'skipped:runners' | 'skipped:claimed';

const LOCAL_REFUSED = 'repositoryUrl points at a local path, which the built-in executor does not read: use an https:// git URL, or give the config runnerLabels so a self-hosted runner with access to that path scans it';
const isLocal = (source: ScanInput['source']) => source.kind === 'path' || /^file:/i.test(source.url);

const SHUTDOWN = 'The service stopped while the scan was running; trigger the scan again';
/** Abort reasons that leave the scan as it is: cancelled by a user, or already handed to another executor. */
const CANCELLED = 'cancelled';
const LOST = 'lease lost';

export function createExecutor(ctx: AppContext, scans: Pick<ScanService, 'execution'>, settings: ExecutorSettings) {
  const { execution } = scans;
  const detect = settings.detect ?? detectDrift;
  // Scans running in this process, so stop() can end them with a message instead of leaving them running.
  const inFlight = new Map<string, { abort: AbortController; done: Promise<unknown> }>();

  async function execute(orgId: string, scanId: string): Promise<ExecuteOutcome> {
    const claim = await execution.claimForExecutor(orgId, scanId, (i) => {
      if (!settings.localSources && isLocal(i.source)) throw new ConfigProblem(LOCAL_REFUSED);
    });
    if (claim.kind !== 'run') return claim.kind === 'failed' ? 'failed' : `skipped:${claim.kind}`;
    const { input, gen } = claim;

    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), settings.timeoutMs);
    const watch = setInterval(() => {
      execution.renew(orgId, scanId, gen).then((lease) => {
        if (!lease.held) abort.abort(lease.status === 'cancelled' ? CANCELLED : LOST);
      }, (err: Error) => ctx.log.warn({ orgId, scanId, err: err.message }, 'scan lease renewal failed'));
    }, settings.leaseRenewMs ?? RENEW_MS);
    const run = (async () => {
      try {
        const outcome = await detect({
          ...input, ...(settings.ca && input.provider !== 'cloud_a' ? { ca: settings.ca } : {}),
          ...(settings.cloneGuard ? { cloneGuard: settings.cloneGuard } : {}), confined: true, signal: abort.signal,
          providerPlans: settings.providerPlans, allowPlanPrograms: settings.allowPlanPrograms,
          apiBudget: { ...(settings.budgetStore ? { store: settings.budgetStore } : {}), ...(input.apiRates ? { rates: input.apiRates } : {}) },
        });
        await execution.record(orgId, scanId, { status: 'completed', drifts: outcome.drifts, inventory: outcome.inventory, stats: scanStatsOf(outcome.resourcesScanned, outcome.stats) }, gen);
        ctx.log.info({ orgId, scanId, drifts: outcome.drifts.length, resources: outcome.resourcesScanned, ms: outcome.stats.durationMs }, 'scan completed');
        return 'ran' as const;
      } catch (err) {
        if (abort.signal.reason === CANCELLED || abort.signal.reason === LOST) {
          ctx.log.info({ orgId, scanId, why: abort.signal.reason }, 'scan engine stopped');
          return 'stopped' as const;
        }
        const error = abort.signal.reason === SHUTDOWN ? SHUTDOWN : failureMessage(err);
        ctx.log.warn({ orgId, scanId, err: (err as Error)?.message }, 'scan failed');
        // Refused (409) when the lease moved on meanwhile: the scan is another executor's now.
        await execution.record(orgId, scanId, { status: 'failed', error }, gen).catch((e: { statusCode?: number }) => { if (e.statusCode !== 409) throw e; });
        return 'failed' as const;
      } finally {
        clearTimeout(timer);
        clearInterval(watch);
        inFlight.delete(scanId);
      }
    })();
    inFlight.set(scanId, { abort, done: run });
    return run;
  }

  return {
    execute,
    /** Scans running here now (tests, shutdown). */
    running: () => [...inFlight.keys()],
    /** Ends the scans running here: each is recorded failed with a message saying why. */
    async stop() {
      for (const f of inFlight.values()) f.abort.abort(SHUTDOWN);
      await Promise.allSettled([...inFlight.values()].map((f) => f.done));
    },
  };
}
export type Executor = ReturnType<typeof createExecutor>;

declare module '../../core/plugin.ts' {
  interface PluginServices { executor: Executor }
}
