// A discovery scan's job and its end: the scan job (engine discover.ts: list modes + the drift
// readers, regions × types fanned out with a limit, adaptive retries) runs once per scan, records
// and classifies what it found; the timeout job fails a scan still running past the timeout; stop
// ends the scans of this process at shutdown.
import type { AppContext } from '../../core/context.ts';
import { AppError } from '../../core/errors.ts';
import { discoverAccount, discoverRestAccount, ScanError } from '../../runner-agent/src/engine/discovery.ts';
import type { Account } from './cloud-accounts.ts';
import { DISCOVERY_TIMEOUT_JOB, round1, type DiscoveryDeps } from './discovery-deps.ts';
import { monthlyCost } from './prices.ts';

interface RunParts {
  account: (orgId: string, cloudAccountId: string) => Promise<Account>;
  classify: (orgId: string) => Promise<void>;
  /** The scans running in this process, by id: the timeout and shutdown abort them. */
  running: Map<string, AbortController>;
}

export function createDiscoveryRun(ctx: AppContext, d: DiscoveryDeps, { account, classify, running }: RunParts) {
  const timeoutMs = d.timeoutMinutes * 60_000;
  const discover = d.discover ?? discoverAccount;

  /** Reads the account, records and classifies what it found, and ends the scan completed. */
  async function scanAccount(orgId: string, scanId: string, scan: { cloudAccountId: string; regions: string[]; resourceTypes: string[] }, signal: AbortSignal, started: number) {
    const acct = await account(orgId, scan.cloudAccountId);
    let last = '';
    const onProgress = (p: { regionsDone: number; regionsTotal: number }) => {
      const key = `${p.regionsDone}/${p.regionsTotal}`;
      if (key === last) return;
      last = key;
      void d.store.updateScan(orgId, scanId, { progress: p }).catch(() => undefined);
    };
    // Discovery reads the account through the same API budget as its scans (scans/api-budget.ts).
    const apiBudget = await d.scans.apiBudget?.forOrg(orgId);
    const common = { regions: scan.regions, types: scan.resourceTypes, concurrency: d.concurrency, signal, onProgress, ...(apiBudget ? { apiBudget } : {}) };
    const out = acct.provider === 'cloud_a'
      ? await discover({ ...common, credentials: acct.credentials, endpoint: d.endpoint })
      // The subscription or project is listed whole; the scan's regions (all, by default) filter what is kept.
      : await (d.discoverRest ?? discoverRestAccount)({ ...common, provider: acct.provider, credentials: acct.credentials, endpoint: d.restEndpoints?.[acct.provider], ca: d.ca });
    const looked = acct.provider === 'cloud_a' ? scan.regions : ['*'];
    const now = new Date();
    await d.store.recordFound(orgId, scan.cloudAccountId, scanId, out.resources.map((r) => ({
      resourceType: r.type, service: r.service, resourceId: r.resourceId, region: r.region, attributes: r.attributes, estimatedMonthlyCost: monthlyCost(r.type, r.attributes),
    })), scan.resourceTypes, looked, now);
    await classify(orgId);
    const orphansFound = (await d.store.summaryRows(orgId, scan.cloudAccountId)).filter((r) => r.iacStatus === 'orphan').length;
    await d.store.finishScan(orgId, scanId, {
      status: 'completed', resourcesFound: out.resources.length, orphansFound, duration: round1((Date.now() - started) / 1000), completedAt: new Date(),
      progress: { regionsDone: scan.regions.length, regionsTotal: scan.regions.length }, sdkCalls: out.stats.sdkCalls, error: null,
    });
    ctx.log.info({ orgId, scanId, resources: out.resources.length, sdkCalls: out.stats.sdkCalls }, 'discovery scan completed');
  }

  /** The scan job: runs once per scan (Agenda may run a job twice), records and classifies what it found. */
  async function run(orgId: string, scanId: string) {
    const claim = await ctx.once.runOnce(`discovery:${scanId}:run`, orgId, async () => {
      const scan = await d.store.getScan(orgId, scanId);
      if (!scan || scan.status !== 'running') return false;
      const abort = new AbortController();
      running.set(scanId, abort);
      const timer = setTimeout(() => abort.abort(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), timeoutMs);
      const started = Date.now();
      try {
        await scanAccount(orgId, scanId, scan, abort.signal, started);
        return true;
      } catch (err) {
        const error = err instanceof ScanError || err instanceof AppError ? (err as Error).message
          : `The discovery scan hit an unexpected error (${(err as Error)?.message ?? err}); start it again`;
        ctx.log.warn({ orgId, scanId, err: (err as Error)?.message }, 'discovery scan failed');
        await d.store.finishScan(orgId, scanId, { status: 'failed', error: error.slice(0, 2000), completedAt: new Date(), duration: round1((Date.now() - started) / 1000) });
        return true;
      } finally {
        clearTimeout(timer);
        running.delete(scanId);
      }
    });
    /** Whether this call ran the scan (false: another run did, or it is no longer running). */
    return claim.won && claim.value;
  }

  return {
    run,
    /** The timeout job: a scan still running past the timeout (its process died, or it hung) fails. */
    async expire(orgId: string, scanId: string, now = new Date()) {
      const scan = await d.store.getScan(orgId, scanId);
      if (!scan || scan.status !== 'running') return false;
      if (now.getTime() - scan.startedAt.getTime() < timeoutMs) {
        await ctx.scheduler.at(new Date(scan.startedAt.getTime() + timeoutMs), DISCOVERY_TIMEOUT_JOB, { orgId, scanId });
        return false;
      }
      running.get(scanId)?.abort(Object.assign(new Error('timeout'), { name: 'TimeoutError' }));
      return d.store.finishScan(orgId, scanId, {
        status: 'failed', completedAt: now, duration: round1((now.getTime() - scan.startedAt.getTime()) / 1000),
        error: `The discovery scan did not finish within ${d.timeoutMinutes} minutes (its process stopped or the account is too large for the timeout); start it again`,
      });
    },
    /** Ends the scans running in this process (shutdown): each fails saying why. */
    async stop() {
      for (const a of running.values()) a.abort(Object.assign(new Error('stopped'), { name: 'AbortError' }));
    },
  };
}
