// The cloud API budget of an organization's scans (runner-agent/src/engine/budget): the buckets
// live in Redis, shared by every process and the built-in executor (and Drift Watch, targeted
// re-checks and discovery, which run through them); the organization's rates (`apiRates`,
// requests per second per `<cloud>:<service>`) override the engine's defaults. The only file
// that touches `scan_api_rates`: one document per organization (_id = orgId); the rates are kept
// as rows because service names hold dots (`azure:Microsoft.Network`), which field names may not.
import type { AppContext } from '../../core/context.ts';
import type { CollectionSpec, Database } from '../../core/db.ts';
import { badRequest } from '../../core/errors.ts';
import { apiRatesProblem, RedisBucketStore, type ApiRates, type BudgetOptions } from '../../runner-agent/src/engine/index.ts';

interface StoredRates { _id: string; orgId: string; rates: { key: string; perSecond: number }[]; updatedAt: Date }

export const SCAN_API_RATES: CollectionSpec = { name: 'scan_api_rates', owner: 'plugins/scans', indexes: [] };

export function createApiBudget(ctx: AppContext, db: Database) {
  const col = db.collection<StoredRates>(SCAN_API_RATES);
  let warned = 0;
  const store = new RedisBucketStore(ctx.redis.main, {
    // Redis down: each process budgets alone (still below the defaults), said once a minute.
    onError: (err) => { if (Date.now() - warned > 60_000) { warned = Date.now(); ctx.log.warn({ err: err.message }, 'API budget: Redis unavailable, this process budgets alone'); } },
  });

  async function rates(orgId: string): Promise<ApiRates> {
    const doc = await col.findOne({ _id: orgId });
    return Object.fromEntries((doc?.rates ?? []).map((r) => [r.key, r.perSecond]));
  }

  return {
    rates,
    /** The Redis store every scan of this process draws from. */
    store,
    /** What a scan of the organization hands the engine: the shared store and its rates. */
    async forOrg(orgId: string): Promise<BudgetOptions> {
      const own = await rates(orgId);
      return { store, ...(Object.keys(own).length ? { rates: own } : {}) };
    },
    /** Replaces the organization's rates ({} clears them: the defaults apply). */
    async setRates(orgId: string, next: unknown): Promise<ApiRates> {
      const problem = apiRatesProblem(next);
      if (problem) throw badRequest(problem);
      const rows = Object.entries(next as ApiRates).map(([key, perSecond]) => ({ key, perSecond }));
      await col.updateOne({ _id: orgId }, { $set: { orgId, rates: rows, updatedAt: new Date() } }, { upsert: true });
      return rates(orgId);
    },
    removeOrg: async (orgId: string) => { await col.deleteOne({ _id: orgId }); },
  };
}
export type ApiBudgetService = ReturnType<typeof createApiBudget>;
