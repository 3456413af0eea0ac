// The runner agent: a heartbeat loop and a job loop against the service's runner routes.
// The job loop first delivers what the outbox holds, then claims one job, runs the detection
// engine on it and queues its report in the outbox before sending it. Errors back off
// exponentially with jitter. stop() (SIGTERM): no new claim, the current scan gets a grace
// period to finish and is aborted after it, reports are flushed once more, and start() returns.
// Cancel: a busy heartbeat's answer names the jobs to stop (cancelJobs: the scan was cancelled
// or handed to another runner), as does the answer to the running report; the engine is aborted
// (its readers and plan steps take the signal) and the job is reported `cancelled`.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError, createApi, VERSION, type Api } from './api.ts';
import { createBackoff, sleep } from './backoff.ts';
import { providerPlans, systemInfo } from './system-info.ts';
import { createOutbox, type JobReport, type Outbox } from './outbox.ts';
import { defaultPluginCache } from './plugin-cache.ts';
import { apiRatesProblem, detectDrift, ScanError, type ApiRates, type ScanInput, type ScanOutcome } from './engine/index.ts';

export interface AgentOptions {
  url: string;
  token: string;
  stateDir: string;
  pollIntervalMs: number;
  heartbeatIntervalMs: number;
  /** How long a running scan may go on after stop() before it is aborted. */
  graceMs: number;
  /** Extra CA certificates (PEM) for cloud_b and cloud_c calls (DRIFT_CLOUD_CA_FILE). */
  cloudCa?: string;
  /** Overrides the job's cloud_a endpoint (a runner inside the customer's network knows its own). */
  cloudAEndpoint?: string;
  log: (level: 'info' | 'warn' | 'error', msg: string) => void;
  detect?: (input: ScanInput) => Promise<ScanOutcome>;
  /** Where the plan binary is looked up (DRIFT_TOFU_BINARY, PATH); process.env by default. */
  env?: NodeJS.ProcessEnv;
}

export interface Job {
  _id: string;
  type: 'scan';
  repositoryConfig: string;
  repositoryName: string;
  branch: string;
  /** apiRates: the organization's cloud API rates; this runner's budget (its own buckets, shared by its scans) uses them. */
  scan: Omit<ScanInput, 'signal' | 'onProgress' | 'useTofu' | 'apiBudget'> & { apiRates?: ApiRates };
}

const STOPPED = 'The runner was stopped while running the scan; trigger the scan again';
/** The abort reason when the service said stop (cancelJobs). */
const CANCELLED = 'cancelled by the service';
const RESTARTED = 'The runner restarted while running the scan; trigger the scan again';
/** Inventory rows the service accepts in one report (plugins/scans/schemas.ts INVENTORY_MAX). */
const INVENTORY_MAX = 20_000;

export class Agent {
  private readonly api: Api;
  private outbox!: Outbox;
  private readonly stopping = new AbortController();
  /** The running job's engine: aborted by stop() after the grace period, or when the service says stop. */
  private jobAbort = new AbortController();
  private currentJobId: string | undefined;
  private current: Promise<void> | undefined;
  private readonly marker: string;

  private readonly o: AgentOptions;

  constructor(o: AgentOptions) {
    this.o = o;
    this.api = createApi(o.url, o.token);
    this.marker = path.join(o.stateDir, 'current-job.json');
  }

  /** Runs until stop(); resolves once the last reports were flushed (or could not be). */
  async start(): Promise<void> {
    await mkdir(this.o.stateDir, { recursive: true, mode: 0o700 });
    this.outbox = await createOutbox(this.o.stateDir);
    const cache = await defaultPluginCache(this.o.stateDir, this.o.env ?? process.env);
    if (cache) this.o.log('info', `provider plugins for plans are cached in ${cache} (set TF_PLUGIN_CACHE_DIR or a CLI configuration to choose)`);
    await this.recover();
    this.o.log('info', `drift-runner ${VERSION} polling ${this.o.url} every ${this.o.pollIntervalMs / 1000}s (state in ${this.o.stateDir})`);
    const beats = this.heartbeats();
    await this.jobs();
    await beats;
    await this.flush().catch((err: Error) => this.o.log('warn', `reports kept in the outbox for the next start: ${err.message}`));
  }

  /** SIGTERM: stop claiming; the current scan has graceMs to finish, then it is aborted. */
  stop(): void {
    if (this.stopping.signal.aborted) return;
    this.stopping.abort();
    if (this.current) this.armGrace(this.current);
  }

  private armGrace(job: Promise<void>) {
    this.o.log('info', `stopping: the current scan has ${this.o.graceMs / 1000}s to finish`);
    const timer = setTimeout(() => this.jobAbort.abort(STOPPED), this.o.graceMs);
    void job.finally(() => clearTimeout(timer));
  }

  /** A scan that was running when the agent died: its failure is queued, once, with the reason. */
  private async recover() {
    const text = await readFile(this.marker, 'utf8').catch(() => undefined);
    if (!text) return;
    const { jobId } = JSON.parse(text) as { jobId: string };
    const queued = await this.outbox.pending();
    if (!queued.some((p) => p.report.jobId === jobId && p.report.status !== 'running')) {
      await this.outbox.add({ jobId, status: 'failed', error: RESTARTED });
    }
    await rm(this.marker, { force: true });
  }

  private flush() {
    return this.outbox.flush(async (r) => {
      try {
        await this.api.post('/jobs/status', r);
      } catch (err) {
        // A result too large for the service would otherwise be dropped and the scan left running.
        if (!(err instanceof ApiError && err.status === 413 && r.status === 'completed')) throw err;
        // The inventory goes first: without it the service keeps the config's previous one.
        if (r.result?.inventory) {
          this.o.log('warn', `job ${r.jobId}: result too large for the service (HTTP 413); reporting it without the state inventory`);
          const { inventory: _dropped, ...rest } = r.result;
          try { await this.api.post('/jobs/status', { ...r, result: rest }); return; } catch (again) {
            if (!(again instanceof ApiError && again.status === 413)) throw again;
          }
        }
        const error = `The scan found ${r.result?.drifts.length ?? 0} drifts, a result larger than the service accepts (HTTP 413): raise the service's BODY_LIMIT, or split the repository config's iacPaths`;
        await this.api.post('/jobs/status', { jobId: r.jobId, status: 'failed', error });
      }
    }, (m) => this.o.log('warn', m));
  }

  /** One heartbeat, no retry: `drift-runner check` (the setup script's proof that an upgrade starts and reaches the service). */
  async reportIn(): Promise<void> {
    await this.api.post('/heartbeat', await this.beat('online'), 10_000);
  }

  /** A heartbeat's body: status, version, the machine, and the binary provider plans run with (null: none). */
  private async beat(status: 'online' | 'busy') {
    return { status, version: VERSION, systemInfo: await systemInfo(this.o.stateDir), providerPlans: await providerPlans(this.o.env) };
  }

  private async heartbeats() {
    const backoff = createBackoff(1000, this.o.heartbeatIntervalMs);
    while (!this.stopping.signal.aborted) {
      let wait = this.o.heartbeatIntervalMs;
      try {
        const ack = await this.api.post<{ cancelJobs?: string[] }>('/heartbeat', await this.beat(this.current ? 'busy' : 'online'), 10_000);
        this.stopIfTold(ack?.cancelJobs ?? []);
        backoff.reset();
      } catch (err) {
        wait = backoff.next((err as ApiError).retryAfterMs);
        if (backoff.failures === 1 || backoff.failures % 10 === 0) this.o.log('warn', `heartbeat failed (${(err as Error).message})`);
      }
      await sleep(wait, this.stopping.signal);
    }
  }

  private async jobs() {
    const backoff = createBackoff(1000, 60_000);
    while (!this.stopping.signal.aborted) {
      try {
        // Undelivered reports go first: the service learns of finished scans before a new claim.
        const sent = await this.flush();
        if (sent) this.o.log('info', `delivered ${sent} queued report(s)`);
        const { job } = await this.api.post<{ job: Job | null }>('/jobs');
        backoff.reset();
        if (job) {
          this.current = this.run(job);
          // Claimed while stop() was already under way: the same grace applies.
          if (this.stopping.signal.aborted) this.armGrace(this.current);
          await this.current;
          this.current = undefined;
        } else {
          await sleep(this.o.pollIntervalMs, this.stopping.signal);
        }
      } catch (err) {
        const wait = backoff.next(err instanceof ApiError ? err.retryAfterMs : 0);
        this.o.log(backoff.failures > 3 ? 'error' : 'warn', `${(err as Error).message}; retrying in ${(wait / 1000).toFixed(1)}s`);
        await sleep(wait, this.stopping.signal);
      }
    }
  }

  /** The service named jobs to stop: the current one, if named, is aborted (reported cancelled). */
  private stopIfTold(jobIds: string[]) {
    if (!this.currentJobId || !jobIds.includes(this.currentJobId) || this.jobAbort.signal.aborted) return;
    this.o.log('info', `job ${this.currentJobId}: the service says stop (cancelled); aborting the scan`);
    this.jobAbort.abort(CANCELLED);
  }

  private async run(job: Job) {
    this.o.log('info', `job ${job._id}: scanning ${job.repositoryName}@${job.branch}`);
    // A fresh signal per job: a cancelled one must not abort the next.
    if (!this.stopping.signal.aborted) this.jobAbort = new AbortController();
    this.currentJobId = job._id;
    try {
      await this.runJob(job);
    } finally {
      this.currentJobId = undefined;
    }
  }

  private async runJob(job: Job) {
    await writeFile(this.marker, JSON.stringify({ jobId: job._id, at: new Date().toISOString() }), { mode: 0o600 });
    await this.queue({ jobId: job._id, status: 'running' });
    let report: JobReport;
    try {
      // The runner's own cloud_a endpoint (and CA file) win over the job's: it knows its network.
      const endpoint = (job.scan.provider === 'cloud_a' ? this.o.cloudAEndpoint : undefined) ?? job.scan.endpoint;
      const ca = job.scan.provider !== 'cloud_a' ? this.o.cloudCa : undefined;
      // A runner may always plan: the engine finds the binary itself (DRIFT_TOFU_BINARY, PATH) and,
      // when there is none, compares natively and says why in the scan's stats.
      // The organization's rates, when the service sent valid ones; else the engine's defaults.
      const { apiRates, ...scan } = job.scan;
      const rates = apiRates && !apiRatesProblem(apiRates) ? apiRates : undefined;
      const out = await (this.o.detect ?? detectDrift)({
        ...scan, ...(endpoint ? { endpoint } : {}), ...(ca ? { ca } : {}), providerPlans: true, signal: this.jobAbort.signal,
        apiBudget: rates ? { rates } : {},
      });
      // The inventory (every managed instance of the states) within the service's bound; a larger one is left out.
      const inventory = out.inventory && out.inventory.length <= INVENTORY_MAX ? { inventory: out.inventory } : {};
      if (out.inventory && out.inventory.length > INVENTORY_MAX) this.o.log('warn', `job ${job._id}: ${out.inventory.length} managed instances, more than the ${INVENTORY_MAX} a report carries; inventory left out`);
      report = { jobId: job._id, status: 'completed', result: { drifts: out.drifts, resourcesScanned: out.resourcesScanned, stats: { ...out.stats }, ...inventory } };
      this.o.log('info', `job ${job._id}: ${out.drifts.length} drift(s) in ${out.resourcesScanned} resource(s), ${out.stats.durationMs} ms`);
    } catch (err) {
      if (this.jobAbort.signal.reason === CANCELLED) {
        await this.queue({ jobId: job._id, status: 'cancelled' });
        await rm(this.marker, { force: true });
        return;
      }
      const error = this.jobAbort.signal.aborted ? STOPPED
        : err instanceof ScanError ? err.message : `The runner hit an unexpected error (${(err as Error)?.message ?? err}); trigger the scan again`;
      report = { jobId: job._id, status: 'failed', error: error.slice(0, 2000) };
      this.o.log('warn', `job ${job._id} failed: ${error}`);
    }
    await this.queue(report);
    await rm(this.marker, { force: true });
  }

  /** Into the outbox first, then one delivery attempt; a failure leaves it for the job loop's retries. */
  private async queue(report: JobReport) {
    await this.outbox.add(report);
    await this.flush().catch((err: Error) => this.o.log('warn', `${report.status} report of job ${report.jobId} queued: ${err.message}`));
  }
}
