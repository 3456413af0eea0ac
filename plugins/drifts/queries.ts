// The drift routes' reads: lists and /query with allow-listed filters and sort, aggregations,
// suggestions, autocomplete, the drifts of a scan or config and a config's statistics.
import type { AppContext } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { narrow, type RepoScope } from '../../core/guards/repositories.ts';
import { driftSort, type DriftFilter } from './drift-filter.ts';
import { driftView, type FilterQuery, type ListQuery, type QueryQuery } from './schemas.ts';
import type { DriftStore } from './store.ts';
import { driftTrend } from './trend.ts';
import { DRIFT_STATUSES, SEVERITIES, SORT_FIELDS, type DriftStatus, type Severity } from './types.ts';
import { pageOf } from '../../core/schemas.ts';

const split = <T extends string>(v: string | undefined) => (v ? (v.split(',') as T[]) : undefined);
const zeroSeverity = () => ({ critical: 0, high: 0, medium: 0, low: 0 });

/** The store filter for a request: its query narrowed to the repositories the caller may see. */
export function toFilter(q: FilterQuery, scope: RepoScope): DriftFilter {
  return {
    q: q.q || undefined,
    status: split<DriftStatus>(q.status),
    severity: split<Severity>(q.severity),
    resourceType: q.resourceType || undefined,
    repositoryConfig: narrow(scope, q.repositoryConfigId),
    resourceId: q.resourceId || undefined,
    location: q.location || undefined,
    ruleId: q.ruleId || undefined,
    actor: q.actor || undefined,
    suppressed: q.suppressed === true,
  };
}

/**
 * Scans and repository configs are other plugins' records: their existence is asked of the
 * engine's record lookup (ctx.repositoryOf), so drifts need neither plugin.
 */
export function createDriftQueries(ctx: AppContext, drifts: DriftStore) {
  const d = { drifts };
  async function mustExist(kind: 'scan' | 'repo-config', orgId: string, id: string) {
    if (!(await ctx.repositoryOf(kind, orgId, id))) throw notFound(kind === 'scan' ? 'Scan' : 'Repository config');
  }
  async function page(orgId: string, f: DriftFilter, sort: string | undefined, p: { page: number; limit: number }) {
    const { rows, total } = await d.drifts.page(orgId, f, driftSort(sort), (p.page - 1) * p.limit, p.limit);
    return pageOf(rows.map(driftView), p, total);
  }

  return {
    list: (orgId: string, q: ListQuery, scope: RepoScope) =>
      page(orgId, toFilter({ status: q.status, severity: q.severity, resourceId: q.resourceId, location: q.location, ruleId: q.ruleId, actor: q.actor, suppressed: q.suppressed }, scope), undefined, q),
    query: (orgId: string, q: QueryQuery, scope: RepoScope) =>
      page(orgId, toFilter(q, scope), q.sort, q),

    async aggregations(orgId: string, q: FilterQuery, scope: RepoScope) {
      const f = toFilter(q, scope);
      // One grouping serves bySeverity, byStatus and byResourceType; two more give the trend.
      const [groups, trend] = await Promise.all([
        d.drifts.group(orgId, f, { severity: '$severity', status: '$status', resourceType: '$resourceType' }),
        driftTrend(d.drifts, orgId, f.repositoryConfig),
      ]);
      const bySeverity = zeroSeverity();
      const byStatus: Record<string, number> = Object.fromEntries(DRIFT_STATUSES.map((s) => [s, 0]));
      const byResourceType: Record<string, number> = {};
      let total = 0;
      for (const g of groups) {
        total += g.n;
        bySeverity[g._id.severity as Severity] += g.n;
        byStatus[g._id.status] = (byStatus[g._id.status] ?? 0) + g.n;
        byResourceType[g._id.resourceType] = (byResourceType[g._id.resourceType] ?? 0) + g.n;
      }
      return { total, bySeverity, byStatus, byResourceType, trend };
    },

    async suggestions(orgId: string, scope: RepoScope) {
      const repos = narrow(scope);
      const [types, names] = await Promise.all([
        d.drifts.distinctPrefix(orgId, 'resourceType', '', 20, repos),
        d.drifts.distinctPrefix(orgId, 'repositoryName', '', 20, repos),
      ]);
      return {
        fields: ['q', 'status', 'severity', 'resourceType', 'repositoryConfigId', 'resourceId', 'location', 'ruleId', 'actor', 'suppressed'],
        sortFields: SORT_FIELDS.flatMap((s) => [s, `-${s}`]),
        statuses: [...DRIFT_STATUSES],
        severities: [...SEVERITIES],
        resourceTypes: types.map((t) => ({ value: t._id, count: t.n })),
        repositories: names.map((t) => ({ value: t._id, count: t.n })),
      };
    },

    async autocomplete(orgId: string, q: { field: string; prefix?: string; limit?: number }, scope: RepoScope) {
      const rows = await d.drifts.distinctPrefix(orgId, q.field, q.prefix ?? '', q.limit ?? 10, narrow(scope));
      return rows.filter((r) => r._id !== null && r._id !== undefined).map((r) => String(r._id));
    },

    async byScan(orgId: string, scanId: string) {
      await mustExist('scan', orgId, scanId);
      return (await d.drifts.byScan(orgId, scanId, 1000)).map(driftView);
    },

    async byRepository(orgId: string, configId: string, p: { page: number; limit: number }) {
      await mustExist('repo-config', orgId, configId);
      return (await page(orgId, { repositoryConfig: [configId] }, undefined, p)).data;
    },

    async statistics(orgId: string, configId: string) {
      await mustExist('repo-config', orgId, configId);
      const groups = await d.drifts.group(orgId, { repositoryConfig: [configId] }, { severity: '$severity', status: '$status', resolvedBy: '$resolvedBy' });
      const bySeverity = zeroSeverity();
      const resolvedBySeverity = zeroSeverity();
      const byStatus: Record<string, number> = Object.fromEntries(DRIFT_STATUSES.map((s) => [s, 0]));
      let total = 0; let byScan = 0; let byUser = 0;
      for (const g of groups) {
        const sev = g._id.severity as Severity;
        total += g.n;
        bySeverity[sev] += g.n;
        byStatus[g._id.status] += g.n;
        if (g._id.status === 'resolved') {
          resolvedBySeverity[sev] += g.n;
          if (g._id.resolvedBy === 'user') byUser += g.n; else byScan += g.n;
        }
      }
      const rate = (a: number, b: number) => (b ? Math.round((a / b) * 10000) / 10000 : 0);
      return {
        repositoryConfigId: configId, total, open: total - byStatus.resolved, bySeverity, byStatus,
        resolved: byStatus.resolved, resolvedByScan: byScan, resolvedByUser: byUser, resolutionRate: rate(byStatus.resolved, total),
        resolutionRateBySeverity: Object.fromEntries(SEVERITIES.map((s) => [s, rate(resolvedBySeverity[s], bySeverity[s])])) as Record<Severity, number>,
      };
    },

  };
}
