// Drifts: the drift routes' reads (queries.ts), status moves with documented source states and
// feedback, and the drift's life for the other plugins: reconcile (reconcile.ts: what a scan's
// result changes, the annotator hook before it), Drift Watch's accepted baseline, counts. No
// HTTP here (the CSV export's streaming lives in export.ts).
import type { AppContext } from '../../core/context.ts';
import { conflict, notFound } from '../../core/errors.ts';
import { RULE_TABLE } from '../../runner-agent/src/engine/index.ts';
import type { Annotators } from './annotators.ts';
import type { DriftFilter } from './drift-filter.ts';
import type { LifecycleStore } from './lifecycle-store.ts';
import { createDriftQueries } from './queries.ts';
import { createReconciler } from './reconcile.ts';
import { driftView } from './schemas.ts';
import type { DriftStore } from './store.ts';
import { driftTrend, isoDay } from './trend.ts';
import type { AiAnalysis, Drift, DriftStatus } from './types.ts';

export { toFilter } from './queries.ts';

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

interface Deps { drifts: DriftStore; lifecycle: LifecycleStore; annotators: Annotators }

/** A user's edits of one drift: its status and feedback, and the analysis drift-fixes writes. */
function createDriftEdits(ctx: AppContext, d: Deps) {
  async function load(orgId: string, id: string) {
    const drift = await d.drifts.get(orgId, id);
    if (!drift) throw notFound('Drift');
    return drift;
  }
  return {
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

    /** Replaces the drift's analysis (POST /:driftId/reanalyze, plugins/drift-fixes); the drift as it reads after. */
    async setAiAnalysis(orgId: string, id: string, analysis: AiAnalysis) {
      await load(orgId, id);
      await d.drifts.setAiAnalysis(orgId, id, analysis, new Date());
      return driftView(await load(orgId, id));
    },
  };
}

/** The drift's life as the other plugins drive it: scans reconcile results, cloud-events annotates, Drift Watch accepts. */
function createDriftLife(d: Deps) {
  return {
    /** What one completed scan's result changes on its config's drifts (reconcile.ts); written before it answers. */
    reconcile: createReconciler({ store: d.lifecycle, annotators: d.annotators }),
    /** The annotator hook (annotators.ts): attach from a plugin's build; closed once the service starts. */
    attachAnnotator: d.annotators.attach,
    /**
     * Drift Watch accept: every open drift of the config that is detected or acknowledged becomes
     * accepted (by whom, when, its current diff); its status does not change. Answers how many.
     * The scan recording honours it: the same diff is not reported again, another one is.
     */
    async acceptOpen(orgId: string, configId: string, by: string, at = new Date()) {
      const open = (await d.lifecycle.openOf(orgId, configId)).filter((o) => o.status === 'detected' || o.status === 'acknowledged');
      await d.lifecycle.accept(orgId, open.map((o) => ({ id: o._id, accepted: { by, at, diff: (o.diff ?? {}) as Record<string, unknown> } })));
      return open.length;
    },
    /**
     * What one completed scan changed on its config: the drifts it reported (first detected, or
     * reported again after their accepted diff changed), those it resolved, and the config's open
     * drifts after it (accepted ones flagged).
     */
    async scanOutcome(orgId: string, configId: string, scanId: string) {
      const [reported, resolved, open] = await Promise.all([
        d.lifecycle.reportedBy(orgId, scanId), d.lifecycle.resolvedBy(orgId, configId, scanId), d.lifecycle.openOf(orgId, configId),
      ]);
      // Drifts suppressed as learned noise (plugins/cloud-events) are not news to a watch either.
      const shown = <T extends { suppressed?: boolean }>(list: T[]) => list.filter((x) => !x.suppressed);
      return { reported: shown(reported), resolved: shown(resolved), open: shown(open) };
    },
  };
}

/**
 * Routes addressing a record by id are held to a CLI token's repositories by the engine
 * (manifest `repositories`), before the service runs: the service checks existence only.
 */
export function createDriftService(ctx: AppContext, d: Deps) {
  return {
    ...createDriftQueries(ctx, d.drifts),
    ...createDriftEdits(ctx, d),
    ...createDriftLife(d),
    /** The severity table the engine classifies with, in the order it tries the rules. */
    rules: () => RULE_TABLE,
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
  };
}
export type DriftService = ReturnType<typeof createDriftService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { drifts: DriftService }
}
