// POST /discovery/scan: the account resolved and its types checked, one running scan per account
// (refused before the regions are read, and by the unique index after), the regions read when
// none are named, then the scan recorded running with its scan and timeout jobs planned.
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { badRequest, conflict } from '../../core/errors.ts';
import { regionsOf, restRegionsOf, ScanError } from '../../runner-agent/src/engine/discovery.ts';
import { typesOf, type Account } from './cloud-accounts.ts';
import { DISCOVERY_JOB, DISCOVERY_TIMEOUT_JOB, ORG_ACCOUNT, type DiscoveryDeps } from './discovery-deps.ts';
import type { StartScan } from './schemas.ts';
import { activeKeyOf } from './store.ts';

export function createDiscoveryStart(ctx: AppContext, d: DiscoveryDeps, account: (orgId: string, cloudAccountId: string) => Promise<Account>) {
  const timeoutMs = d.timeoutMinutes * 60_000;
  const listRegions = d.regions ?? regionsOf;

  /** The regions to scan: those named, else every region enabled for the account. */
  async function regionsFor(acct: Account, named: string[] | undefined) {
    if (named?.length) return [...new Set(named)];
    let regions: string[];
    try {
      regions = acct.provider === 'cloud_a' ? await listRegions(acct.credentials, d.endpoint)
        : await restRegionsOf({ provider: acct.provider, credentials: acct.credentials, endpoint: d.restEndpoints?.[acct.provider], ca: d.ca });
    } catch (err) {
      if (err instanceof ScanError) throw badRequest(err.message);
      throw err;
    }
    if (!regions.length) throw badRequest('The account has no enabled region (EC2 DescribeRegions answered none): name regions in the request');
    return regions;
  }

  /** POST /scan: 202 once the scan is recorded running and its job planned. */
  return async function start(orgId: string, userId: string | null, body: StartScan) {
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
    const regions = await regionsFor(acct, body.regions);
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
  };
}
