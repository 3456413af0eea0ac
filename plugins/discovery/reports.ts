// What the discovered estate adds up to: the dashboard (counts and IaC coverage), the estimated
// monthly costs, and the S3 buckets' exposure.
import { round1, round2 } from './discovery-deps.ts';
import { PRICES_AS_OF, PRICES_SOURCE } from './prices.ts';
import type { DiscoveryStore, IacStatus } from './store.ts';

const add = (m: Record<string, number>, k: string, n = 1) => { m[k] = (m[k] ?? 0) + n; };

export function createDiscoveryReports(store: DiscoveryStore) {
  return {
    async dashboard(orgId: string, accountId?: string) {
      const rows = await store.summaryRows(orgId, accountId);
      const counts: Record<IacStatus, number> = { managed: 0, orphan: 0, ignored: 0 };
      const byService: Record<string, number> = {};
      const byRegion: Record<string, number> = {};
      for (const r of rows) { counts[r.iacStatus]++; add(byService, r.service); add(byRegion, r.region); }
      const counted = rows.length - counts.ignored;
      return { totalResources: rows.length, ...counts, iacCoverage: counted ? round1((counts.managed / counted) * 100) : 0, byService, byRegion };
    },
    async costs(orgId: string, q: { accountId?: string; iacStatus?: IacStatus }) {
      const rows = (await store.summaryRows(orgId, q.accountId)).filter((r) => !q.iacStatus || r.iacStatus === q.iacStatus);
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
      const rows = await store.liveOfType(orgId, 'aws_s3_bucket');
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
  };
}
