// Drifts: lists and /query with allow-listed filters and sort, aggregations, suggestions,
// autocomplete, repository statistics, status moves with documented source states, and
// feedback. No HTTP here (the CSV export's streaming lives in export.ts).
import { pageOf } from '../../core/schemas.ts';
import type { AppContext } from '../../core/context.ts';
import { conflict, notFound } from '../../core/errors.ts';
import { narrow, type RepoScope } from '../../core/guards/repositories.ts';
import { RULE_TABLE } from '../../runner-agent/src/engine/rule-table.ts';
import { driftTrend, isoDay } from './trend.ts';
import { driftView, type FilterQuery, type ListQuery, type QueryQuery } from './schemas.ts';
import { DRIFT_STATUSES, driftSort, SEVERITIES, SORT_FIELDS, type Drift, type DriftFilter, type DriftStatus, type DriftStore, type Severity, type AiAnalysis } from './store.ts';

/**
 * Status moves (SPEC: "allowed source states: not shown"; ours). New drifts are `detected`.
 * acknowledged <- detected; ignored <- detected, acknowledged; resolved <- detected,
 * acknowledged, ignored. Resolved is final: the same resource drifting again later is a
 * new record. Asking for the status a drift already has changes nothing (200).
 */
export const STATUS_SOURCES: Record<'acknowledged' | 'ignored' | 'resolved', readonly DriftStatus[]> = {
  acknowledged: ['detected'],
  ignored: ['detected', 'acknowledged'],
  resolved: ['detected', 'acknowledged', 'ignored'],
};

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

interface Deps { drifts: DriftStore }

/**
 * Routes addressing a record by id are held to a CLI token's repositories by the engine
 * (manifest `repositories`), before the service runs: the service checks existence only.
 * Scans and repository configs are other plugins' records: their existence is asked of the
 * engine's record lookup (ctx.repositoryOf), so drifts need neither plugin.
 */
export function createDriftService(ctx: AppContext, d: Deps) {
  async function load(orgId: string, id: string) {
    const drift = await d.drifts.get(orgId, id);
    if (!drift) throw notFound('Drift');
    return drift;
  }
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

    /** The severity table the engine classifies with, in the order it tries the rules. */
    rules: () => RULE_TABLE,

    get: async (orgId: string, id: string) => driftView(await load(orgId, id)),

    async setStatus(orgId: string, id: string, target: keyof typeof STATUS_SOURCES) {
      const drift = await load(orgId, id);
      if (drift.status === target) return driftView(drift);
      const sources = STATUS_SOURCES[target];
      const refuse = (current: string) => conflict(`A drift cannot move from ${current} to ${target}; allowed from ${sources.join(', ')}`, { status: current, allowedFrom: sources });
      if (!sources.includes(drift.status)) throw refuse(drift.status);
      const now = new Date();
      const set: Partial<Drift> = { status: target, statusChangedAt: now, updatedAt: now };
      if (target === 'resolved') Object.assign(set, { resolvedAt: now, resolvedDay: isoDay(now), resolvedBy: 'user', openKey: `resolved:${id}` });
      const after = await d.drifts.setStatus(orgId, id, sources, set);
      if (!after) throw refuse((await d.drifts.get(orgId, id))?.status ?? 'deleted');
      if (target === 'resolved') {
        await ctx.bus.emit('drift.resolved', orgId, {
          scanId: after.lastScan, repositoryConfigId: after.repositoryConfig, repositoryName: after.repositoryName, count: 1, resolvedBy: 'user',
          drifts: [{ _id: after._id, resourceAddress: after.resourceAddress, severity: after.severity }],
        });
      }
      return driftView(after);
    },

    async feedback(orgId: string, id: string, input: { rating: number; comment?: string }, userId: string | undefined) {
      await load(orgId, id);
      const at = new Date();
      await d.drifts.setFeedback(orgId, id, { rating: input.rating, comment: input.comment ?? null, userId: userId ?? 'unknown', at }, at);
      return { message: 'Feedback recorded' };
    },

    // --- for the plugins that need drifts (scans, drift-widgets, drift-fixes)
    /** Replaces the drift's analysis (POST /:driftId/reanalyze, plugins/drift-fixes); the drift as it reads after. */
    async setAiAnalysis(orgId: string, id: string, analysis: AiAnalysis) {
      await load(orgId, id);
      await d.drifts.setAiAnalysis(orgId, id, analysis, new Date());
      return driftView(await load(orgId, id));
    },
    /** Drifts matching a filter (widget metrics, dashboard totals). */
    count: (orgId: string, f: DriftFilter) => d.drifts.count(orgId, f),
    /** The last TREND_DAYS UTC days of detections and resolutions. */
    trend: (orgId: string, repositoryConfigs: readonly string[] | undefined) => driftTrend(d.drifts, orgId, repositoryConfigs),
    /** Views of the drifts a scan detected first or found again, newest first. */
    scanDrifts: async (orgId: string, scanId: string, limit: number) => (await d.drifts.byScan(orgId, scanId, limit)).map(driftView),
    /** The organization's drifts detected since a UTC day, in batches (the predictions plugin's learn run). */
    eachSince: d.drifts.eachSince,
    countByConfig: (orgId: string, configId: string, status?: DriftStatus) => d.drifts.countByConfig(orgId, configId, status),
    /** Every drift of every organization (admin dashboard). */
    countAll: () => d.drifts.countAll(),
    removeByConfig: async (orgId: string, configId: string) => { await d.drifts.removeByConfig(orgId, configId); },
    removeByScan: (orgId: string, scanId: string) => d.drifts.removeByScan(orgId, scanId),
    /**
     * Drift Watch accept: every open drift of the config that is detected or acknowledged becomes
     * accepted (by whom, when, its current diff); its status does not change. Answers how many.
     * The scan recording honours it: the same diff is not reported again, another one is.
     */
    async acceptOpen(orgId: string, configId: string, by: string, at = new Date()) {
      const open = (await d.drifts.openOf(orgId, configId)).filter((o) => o.status === 'detected' || o.status === 'acknowledged');
      await d.drifts.accept(orgId, open.map((o) => ({ id: o._id, accepted: { by, at, diff: (o.diff ?? {}) as Record<string, unknown> } })));
      return open.length;
    },
    /**
     * What one completed scan changed on its config: the drifts it reported (first detected, or
     * reported again after their accepted diff changed), those it resolved, and the config's open
     * drifts after it (accepted ones flagged).
     */
    async scanOutcome(orgId: string, configId: string, scanId: string) {
      const [reported, resolved, open] = await Promise.all([
        d.drifts.reportedBy(orgId, scanId), d.drifts.resolvedBy(orgId, configId, scanId), d.drifts.openOf(orgId, configId),
      ]);
      // Drifts suppressed as learned noise (plugins/cloud-events) are not news to a watch either.
      const shown = <T extends { suppressed?: boolean }>(list: T[]) => list.filter((x) => !x.suppressed);
      return { reported: shown(reported), resolved: shown(resolved), open: shown(open) };
    },
    /** Writes of a scan's result (plugins/scans/record.ts): named, each scoped to the organization and config. */
    results: {
      openOf: d.drifts.openOf,
      insertNew: d.drifts.insertNew,
      seenAgainByAddress: d.drifts.seenAgainByAddress,
      seenAgain: d.drifts.seenAgain,
      rewrite: d.drifts.rewrite,
      resolveMissing: d.drifts.resolveMissing,
    },
  };
}
export type DriftService = ReturnType<typeof createDriftService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { drifts: DriftService }
}
