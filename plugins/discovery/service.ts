// Cloud Discovery: start a scan of a cloud account (one at a time per account), the scan job
// (engine discover.ts: list modes + the drift readers, regions × types fanned out with a limit,
// adaptive retries), the timeout job, classification against the repository configs' state
// inventories (scans service managedBy / managedIds), dashboard, costs, buckets, codify and
// validate. No HTTP here.
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { AppError, badRequest, conflict, notFound } from '../../core/errors.ts';
import type { CredentialService } from '../credentials/service.ts';
import type { ProjectService } from '../projects/service.ts';
import type { ScanService } from '../scans/service.ts';
import { discoverAccount, regionsOf, type DiscoverInput, type DiscoverOutcome } from '../../runner-agent/src/engine/discover.ts';
import { discoverRestAccount, restRegionsOf, type RestDiscoverInput, type RestProvider } from '../../runner-agent/src/engine/discover-rest.ts';
import { ScanError } from '../../runner-agent/src/engine/errors.ts';
import type { AwsCredentials } from '../../runner-agent/src/engine/types.ts';
import { accountResolver, typesOf } from './accounts.ts';
import { codify, validateHcl } from './iac.ts';
import { monthlyCost, PRICES_AS_OF, PRICES_SOURCE } from './prices.ts';
import { resourceView, scanView, type StartScan } from './schemas.ts';
import { activeKeyOf, REFERENCE_TYPES, type DiscoveredResource, type DiscoveryStore, type IacStatus } from './store.ts';

export const DISCOVERY_JOB = 'discovery.scan';
export const DISCOVERY_TIMEOUT_JOB = 'discovery.timeout';
export const ORG_ACCOUNT = 'org';

interface Deps {
  store: DiscoveryStore;
  scans: Pick<ScanService, 'managedBy' | 'managedIds'>;
  credentials?: Pick<CredentialService, 'values'>;
  projects?: Pick<ProjectService, 'find' | 'credentialValues'>;
  endpoint: string | undefined;
  /** cloud_b / cloud_c endpoint overrides and extra CA (DRIFT_CLOUD_B/C_ENDPOINT, DRIFT_CLOUD_CA_FILE). */
  restEndpoints?: Partial<Record<RestProvider, string>>;
  ca?: string;
  timeoutMinutes: number;
  concurrency: number;
  /** Injected in tests (throttling proxies); discoverAccount otherwise. */
  discover?: (input: DiscoverInput) => Promise<DiscoverOutcome>;
  regions?: (credentials: AwsCredentials, endpoint?: string) => Promise<string[]>;
  discoverRest?: (input: RestDiscoverInput) => Promise<DiscoverOutcome>;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;
const add = (m: Record<string, number>, k: string, n = 1) => { m[k] = (m[k] ?? 0) + n; };

export function createDiscoveryService(ctx: AppContext, d: Deps) {
  const timeoutMs = d.timeoutMinutes * 60_000;
  const discover = d.discover ?? discoverAccount;
  const listRegions = d.regions ?? regionsOf;
  const running = new Map<string, AbortController>();

  const account = accountResolver(d);

  async function loadScan(orgId: string, id: string) {
    const s = await d.store.getScan(orgId, id);
    if (!s) throw notFound('Discovery scan');
    return s;
  }
  async function loadResource(orgId: string, id: string) {
    const r = await d.store.getResource(orgId, id);
    if (!r) throw notFound('Resource');
    return r;
  }

  /** managed / orphan / ignored of every live record of the organization, from the configs' inventories. */
  async function classify(orgId: string) {
    const rows = await d.store.classifyRows(orgId);
    if (!rows.length) return; // nothing discovered: no inventory read (every drift scan of every organization calls this)
    const ids = await d.scans.managedIds(orgId);
    const want: Record<IacStatus, string[]> = { managed: [], orphan: [], ignored: [] };
    for (const r of rows) {
      const status: IacStatus = r.userIgnored ? 'ignored' : ids.has(r.resourceId) ? 'managed' : 'orphan';
      if (r.iacStatus !== status) want[status].push(r._id);
    }
    for (const status of ['managed', 'orphan', 'ignored'] as const) await d.store.setStatus(orgId, want[status], status);
  }

  /** The resource as answered, with the configs and addresses managing it now (read, not stored). */
  async function withManagers(orgId: string, r: DiscoveredResource) {
    const by = (await d.scans.managedBy(orgId, [r.resourceId])).get(r.resourceId) ?? [];
    return resourceView({ ...r, managedBy: by.map((m) => ({ repositoryConfigId: m.repositoryConfigId, address: m.address })) });
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
        const acct = await account(orgId, scan.cloudAccountId);
        let last = '';
        const onProgress = (p: { regionsDone: number; regionsTotal: number }) => {
          const key = `${p.regionsDone}/${p.regionsTotal}`;
          if (key === last) return;
          last = key;
          void d.store.updateScan(orgId, scanId, { progress: p }).catch(() => undefined);
        };
        const common = { regions: scan.regions, types: scan.resourceTypes, concurrency: d.concurrency, signal: abort.signal, onProgress };
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
    classify,
    run,
    /** POST /scan: 202 once the scan is recorded running and its job planned. */
    async start(orgId: string, userId: string | null, body: StartScan) {
      const cloudAccountId = body.cloudAccountId ?? ORG_ACCOUNT;
      const acct = await account(orgId, cloudAccountId);
      const { accountName } = acct;
      const supported = typesOf(acct.provider);
      const resourceTypes = body.resourceTypes?.length ? [...new Set(body.resourceTypes)] : supported;
      const unknown = resourceTypes.filter((t) => !supported.includes(t));
      if (unknown.length) throw badRequest(`Unsupported resourceTypes for ${acct.provider}: ${unknown.join(', ')}; supported: ${supported.join(', ')}`);
      // A running scan of the account is refused before the regions are read (cheap), and by the unique index after.
      const busy = await d.store.runningScan(orgId, cloudAccountId);
      if (busy) throw conflict(`A discovery scan of this account is already running (${busy._id}); wait for it to finish`);
      let regions = body.regions?.length ? [...new Set(body.regions)] : undefined;
      if (!regions) {
        try {
          regions = acct.provider === 'cloud_a' ? await listRegions(acct.credentials, d.endpoint)
            : await restRegionsOf({ provider: acct.provider, credentials: acct.credentials, endpoint: d.restEndpoints?.[acct.provider], ca: d.ca });
        } catch (err) {
          if (err instanceof ScanError) throw badRequest(err.message);
          throw err;
        }
        if (!regions.length) throw badRequest('The account has no enabled region (EC2 DescribeRegions answered none): name regions in the request');
      }
      const startedAt = new Date();
      const scan = {
        _id: newId(), orgId, cloudAccountId, accountName, regions, resourceTypes, status: 'running' as const, activeKey: activeKeyOf(orgId, cloudAccountId),
        resourcesFound: 0, orphansFound: 0, duration: null, progress: { regionsDone: 0, regionsTotal: regions.length }, sdkCalls: null, error: null,
        triggeredBy: userId, startedAt, completedAt: null,
      };
      if (!(await d.store.insertScan(scan))) {
        const other = await d.store.runningScan(orgId, cloudAccountId);
        throw conflict(`A discovery scan of this account is already running${other ? ` (${other._id})` : ''}; wait for it to finish`);
      }
      await ctx.scheduler.now(DISCOVERY_JOB, { orgId, scanId: scan._id });
      await ctx.scheduler.at(new Date(startedAt.getTime() + timeoutMs), DISCOVERY_TIMEOUT_JOB, { orgId, scanId: scan._id });
      return { scanId: scan._id, status: 'running' as const, cloudAccountId, regions, startedAt: startedAt.toISOString() };
    },

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

    async listScans(orgId: string, q: { page: number; limit: number; status?: 'running' | 'completed' | 'failed'; cloudAccountId?: string }) {
      const { rows, total } = await d.store.pageScans(orgId, { status: q.status, cloudAccountId: q.cloudAccountId }, (q.page - 1) * q.limit, q.limit);
      return { scans: rows.map(scanView), total, page: q.page, pages: Math.max(1, Math.ceil(total / q.limit)) };
    },
    getScan: async (orgId: string, id: string) => scanView(await loadScan(orgId, id)),
    getResource: async (orgId: string, id: string) => withManagers(orgId, await loadResource(orgId, id)),

    async setStatus(orgId: string, id: string, iacStatus: 'ignored' | 'orphan') {
      const r = await loadResource(orgId, id);
      const managed = (await d.scans.managedBy(orgId, [r.resourceId])).has(r.resourceId);
      const status: IacStatus = iacStatus === 'ignored' ? 'ignored' : managed ? 'managed' : 'orphan';
      await d.store.updateResource(orgId, id, { userIgnored: iacStatus === 'ignored', iacStatus: status });
      return withManagers(orgId, { ...r, userIgnored: iacStatus === 'ignored', iacStatus: status });
    },

    async generateIac(orgId: string, id: string) {
      const r = await loadResource(orgId, id);
      const c = await codified(orgId, r);
      return { resourceId: r.resourceId, resourceType: r.resourceType, iac: c.iac, importCommand: c.importCommand };
    },
    async validate(orgId: string, id: string) {
      const r = await loadResource(orgId, id);
      const c = await codified(orgId, r);
      const v = await validateHcl(c.iac);
      const lastValidated = new Date();
      await d.store.updateResource(orgId, id, { validation: { valid: v.valid, message: v.message, lastValidated } });
      return { resourceId: r.resourceId, valid: v.valid, lastValidated: lastValidated.toISOString(), validator: v.validator, ...(v.message ? { message: v.message } : {}) };
    },

    async dashboard(orgId: string, accountId?: string) {
      const rows = await d.store.summaryRows(orgId, accountId);
      const counts: Record<IacStatus, number> = { managed: 0, orphan: 0, ignored: 0 };
      const byService: Record<string, number> = {};
      const byRegion: Record<string, number> = {};
      for (const r of rows) { counts[r.iacStatus]++; add(byService, r.service); add(byRegion, r.region); }
      const counted = rows.length - counts.ignored;
      return { totalResources: rows.length, ...counts, iacCoverage: counted ? round1((counts.managed / counted) * 100) : 0, byService, byRegion };
    },
    async costs(orgId: string, q: { accountId?: string; iacStatus?: IacStatus }) {
      const rows = (await d.store.summaryRows(orgId, q.accountId)).filter((r) => !q.iacStatus || r.iacStatus === q.iacStatus);
      const byService: Record<string, number> = {};
      let total = 0;
      let orphan = 0;
      for (const r of rows) {
        total += r.estimatedMonthlyCost;
        if (r.iacStatus === 'orphan') orphan += r.estimatedMonthlyCost;
        add(byService, r.service, r.estimatedMonthlyCost);
      }
      for (const k of Object.keys(byService)) byService[k] = round2(byService[k]);
      return { totalEstimatedMonthlyCost: round2(total), byService, orphanCost: round2(orphan), currency: 'USD' as const, pricesAsOf: PRICES_AS_OF, priceSource: PRICES_SOURCE };
    },
    async buckets(orgId: string) {
      const rows = await d.store.liveOfType(orgId, 'aws_s3_bucket');
      return {
        buckets: rows.map((r) => {
          const a = r.attributes as Record<string, any>;
          const block = a.public_access_block as Record<string, boolean> | null | undefined;
          const blocked = !!block && block.block_public_acls && block.block_public_policy && block.ignore_public_acls && block.restrict_public_buckets;
          const rule = a.server_side_encryption_configuration?.[0]?.rule?.[0];
          return {
            name: r.resourceId, region: r.region, iacStatus: r.iacStatus, publicAccess: !blocked,
            encryption: String(rule?.apply_server_side_encryption_by_default?.[0]?.sse_algorithm ?? rule?.sse_algorithm ?? 'none'),
            versioning: a.versioning?.[0]?.enabled === true,
          };
        }),
      };
    },
    removeOrg: (orgId: string) => d.store.removeOrg(orgId),
  };

  /** The resource's HCL, with references to the account's other discovered resources it names. */
  async function codified(orgId: string, r: DiscoveredResource) {
    const ids = new Set<string>();
    // Strings of the attributes and of their nested blocks (a listener's target group ARN), two levels down.
    const collect = (v: unknown, depth: number) => {
      if (typeof v === 'string') ids.add(v.includes(':role/') ? v.split('/').pop()! : v);
      else if (Array.isArray(v)) for (const x of v) collect(x, depth);
      else if (v && typeof v === 'object' && depth < 2) for (const x of Object.values(v)) collect(x, depth + 1);
    };
    for (const v of Object.values(r.attributes)) collect(v, 0);
    const known = new Map((await d.store.byResourceIds(orgId, r.cloudAccountId, [...ids].slice(0, 500)))
      .filter((k) => REFERENCE_TYPES.has(k.resourceType) && !(k.resourceType === r.resourceType && k.resourceId === r.resourceId)).map((k) => [k.resourceId, k.resourceType]));
    return codify(r.resourceType, r.resourceId, r.region, r.attributes, known);
  }
}
export type DiscoveryService = ReturnType<typeof createDiscoveryService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { discovery: DiscoveryService }
}
