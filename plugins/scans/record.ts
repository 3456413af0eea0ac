// The one domain function through which any executor (the detection engine, a runner)
// reports a scan's result: recordScanResult(orgId, scanId, result). Offered to other
// plugins as part of the scans service (execution.ts uses it for the executor and runners).
//
// Exactly once (DESIGN.md): a state change that must happen once is decided by
// ctx.once.claim. `scan:<id>:running` for the start, and one key, `scan:<id>:final`, for
// every terminal state (completed, failed, cancelled): a completion racing a timeout or a
// cancel ends the scan one way only. A repeated report, or the same report ten times at
// once, loses the claim and changes nothing.
//
// Statements for a completed scan with N drifts, whatever N is: read the scan, claim, read
// the config's open drifts once, insertMany the new ones, one updateMany per distinct
// (severity, changeType, commit) among the drifts found again with the same diff and placement, one bulk write for
// those whose diff or placement changed or whose accepted diff no longer holds (a command per drift inside it),
// one updateMany for those resolved,
// update the scan, update the config. Counters are taken from the records.
import { Value } from 'typebox/value';
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { storableKeys } from '../../core/db.ts';
import { badRequest, notFound } from '../../core/errors.ts';
import { OPEN, SEVERITY_RANK, type Drift, type DriftAnnotation } from '../drifts/store.ts';
import type { DriftService } from '../drifts/service.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import { isoDay } from '../drifts/trend.ts';
import { FINAL, type Scan, type ScanStore } from './store.ts';
import { ScanResult, scanView, type InventoryItem, type ReportedDrift, type ScanStats } from './schemas.ts';
import type { ManagedStore } from './managed-store.ts';
import { placementView } from '../drifts/schemas.ts';

/** Longer than any result write takes (5,000 drifts: seconds); after it a claim's holder is presumed dead. */
const CLAIM_STALE_MS = 10 * 60_000;

/** Events carry at most this many drifts; the count is always complete. */
const EVENT_DRIFTS = 100;

export interface RecordOutcome { changed: boolean; scan: ReturnType<typeof scanView> }

/**
 * What a plugin adds to a completed scan's drifts before they are written (cloud-events: the
 * cause of each new drift, learned noise). `previous`: the open drifts of the addresses the scan
 * read, before it; `since`: when the config's previous completed scan started (null: none).
 * Answers an annotation per reported address; an address it leaves out gets NO_ANNOTATION.
 */
export interface AnnotateInput {
  orgId: string; repositoryConfig: string; scanId: string; since: Date | null; at: Date;
  reported: ReportedDrift[];
  previous: Pick<Drift, 'resourceAddress' | 'resourceType' | 'resourceId' | 'diff' | 'changeType' | 'severity'>[];
  /** Addresses whose drift is new (first detected, or reported again after its accepted diff changed): they get a cause. */
  fresh: Set<string>;
}
export type ResultAnnotator = (input: AnnotateInput) => Promise<Map<string, Partial<DriftAnnotation>>>;
const NO_ANNOTATION: DriftAnnotation = { cause: null, causeReason: 'no_events_received', suppressed: false, suppressedReason: null };
export interface ScanResults {
  recordScanResult(orgId: string, scanId: string, result: ScanResult): Promise<RecordOutcome>;
}

interface Deps {
  scans: ScanStore; drifts: DriftService['results']; configs: Pick<RepoConfigService, 'recordScan'>; onRunning(scan: Scan): Promise<void>;
  /** The config's managed resources, replaced by each completed report carrying an inventory. */
  managed: Pick<ManagedStore, 'replace'>;
  /** The annotators attached (scans service attachAnnotator), in order. */
  annotators?: ResultAnnotator[];
}

export function createRecorder(ctx: AppContext, d: Deps) {
  const unchanged = (scan: Scan): RecordOutcome => ({ changed: false, scan: scanView(scan) });

  /** The scan's own final status is the last write: until it lands, a retry redoes the rest. */
  async function finish(scan: Scan, set: Partial<Scan>) {
    await d.configs.recordScan(scan.orgId, scan.repositoryConfig, set.completedAt ?? new Date(), set.status!);
    await d.scans.update(scan.orgId, scan._id, set);
    return { changed: true, scan: scanView({ ...scan, ...set }) };
  }

  /** Every attached annotator's notes on this scan's drifts (later ones win per field). */
  async function annotate(scan: Scan, at: Date, reported: ReportedDrift[], open: Drift[]) {
    const notes = new Map<string, Partial<DriftAnnotation>>();
    if (!d.annotators?.length) return notes;
    const openAt = new Map(open.map((o) => [o.resourceAddress, o]));
    const fresh = new Set(reported.filter((r) => !openAt.has(r.resourceAddress) || openAt.get(r.resourceAddress)!.accepted).map((r) => r.resourceAddress));
    const previousScan = (await d.scans.recent(scan.orgId, { repositoryConfig: [scan.repositoryConfig], status: 'completed' }, 1))[0];
    const input: AnnotateInput = {
      orgId: scan.orgId, repositoryConfig: scan.repositoryConfig, scanId: scan._id, at, reported, previous: open, fresh,
      since: previousScan ? previousScan.startedAt ?? previousScan.createdAt : null,
    };
    for (const annotator of d.annotators) {
      for (const [address, note] of await annotator(input)) notes.set(address, { ...notes.get(address), ...note });
    }
    return notes;
  }

  async function completed(scan: Scan, reported: ReportedDrift[], inventory: InventoryItem[] | undefined, stats: ScanStats | undefined): Promise<RecordOutcome> {
    const { orgId, _id: scanId, repositoryConfig } = scan;
    const now = new Date();
    // One record per resource address; a repeated address in one report counts once (the last wins).
    // A targeted re-check (scan.trigger) read only its addresses: nothing else is found again,
    // resolved, detected or counted by it.
    const read = scan.trigger ? new Set(scan.trigger.addresses) : null;
    const byAddress = new Map(reported.filter((r) => !read || read.has(r.resourceAddress)).map((r) => [r.resourceAddress, r]));
    const open = (await d.drifts.openOf(orgId, repositoryConfig)).filter((o) => !read || read.has(o.resourceAddress));
    const openByAddress = new Map(open.map((o) => [o.resourceAddress, o]));
    const notes = await annotate(scan, now, [...byAddress.values()], open);
    const noteOf = (address: string): DriftAnnotation => ({ ...NO_ANNOTATION, ...notes.get(address) });

    const fresh: Drift[] = [];
    // Found again: each keeps its record and takes this scan's severity, changeType and diff.
    // Most come back unchanged: one updateMany per (severity, changeType) for those; a drift
    // whose diff changed gets its own update, all of them in one bulk write.
    const again = new Map<string, { severity: Drift['severity']; changeType: Drift['changeType']; commit: string | null; suppressed: boolean; suppressedReason: string | null; ids: string[] }>();
    // A drift whose rule, id or declaration moved (a line added above its block) is rewritten the same way.
    const rediffed: { id: string; r: ReportedDrift; diff: Drift['diff']; reopened?: true }[] = [];
    // Accepted drifts (Drift Watch baseline): found with the diff accepted, they are found again
    // as usual; found with another diff, the acceptance ends and the drift is reported again,
    // with the new ones (scan.completed newDrifts, drift.detected), under its own record.
    const reopened: Drift[] = [];
    const seenAgain = (existing: Drift, r: ReportedDrift) => {
      const diff = storableKeys(r.diff ?? {}) as Drift['diff'];
      const note = noteOf(r.resourceAddress);
      if (existing.accepted && JSON.stringify(diff) !== JSON.stringify(existing.accepted.diff ?? {})) {
        reopened.push({ ...existing, resourceType: r.resourceType, severity: r.severity, ...note });
        rediffed.push({ id: existing._id, r, diff, reopened: true });
        return;
      }
      const moved = JSON.stringify(placementView(r)) !== JSON.stringify(placementView(existing));
      if (moved || JSON.stringify(diff) !== JSON.stringify(existing.diff ?? {})) { rediffed.push({ id: existing._id, r, diff }); return; }
      const changeType = r.changeType ?? 'changed';
      const key = `${r.severity}|${changeType}|${r.commit ?? ''}|${note.suppressedReason ?? ''}`;
      if (!again.has(key)) again.set(key, { severity: r.severity, changeType, commit: r.commit ?? null, suppressed: note.suppressed, suppressedReason: note.suppressedReason, ids: [] });
      again.get(key)!.ids.push(existing._id);
    };
    // Open drifts this very scan inserted: a retry after a failed write (see the header).
    const ownEarlier: Drift[] = [];
    for (const r of byAddress.values()) {
      const existing = openByAddress.get(r.resourceAddress);
      if (existing?.scan === scanId || existing?.redetectedScan === scanId) ownEarlier.push(existing);
      if (existing) { seenAgain(existing, r); continue; }
      fresh.push({
        _id: newId(), orgId, repositoryConfig, repositoryName: scan.repositoryName, scan: scanId, lastScan: scanId,
        resourceType: r.resourceType, resourceAddress: r.resourceAddress, severity: r.severity, severityRank: SEVERITY_RANK[r.severity],
        status: 'detected', changeType: r.changeType ?? 'changed', diff: storableKeys(r.diff ?? {}) as Drift['diff'], aiAnalysis: r.aiAnalysis ?? null, openKey: OPEN,
        detectedAt: now, day: isoDay(now), lastSeenAt: now, resolvedAt: null, resolvedDay: null, resolvedBy: null,
        statusChangedAt: null, feedback: null, updatedAt: now, ...placementView(r), commit: r.commit ?? null, ...noteOf(r.resourceAddress),
      });
    }
    // Ignored drifts stay ignored when they disappear: ignoring is the user's decision about that resource.
    const resolved = open.filter((o) => !byAddress.has(o.resourceAddress) && o.status !== 'ignored');
    // Resolving a drift suppressed as learned noise is not news either.
    const resolvedShown = resolved.filter((o) => !o.suppressed);

    // A scan of the same config completing at the same moment may have inserted some of
    // these first (the open-record unique index refuses ours): they are found again.
    const taken = new Set(await d.drifts.insertNew(orgId, fresh));
    const inserted = [...ownEarlier, ...fresh.filter((f) => !taken.has(f.resourceAddress)), ...reopened];
    if (taken.size) {
      await d.drifts.seenAgainByAddress(orgId, repositoryConfig, [...taken], { lastScan: scanId, lastSeenAt: now, updatedAt: now });
    }
    for (const g of again.values()) {
      await d.drifts.seenAgain(orgId, repositoryConfig, g.ids, {
        lastScan: scanId, lastSeenAt: now, severity: g.severity, severityRank: SEVERITY_RANK[g.severity], changeType: g.changeType, commit: g.commit, updatedAt: now,
        suppressed: g.suppressed, suppressedReason: g.suppressedReason,
      });
    }
    await d.drifts.rewrite(orgId, rediffed.map(({ id, r, diff, reopened: again }) => {
      const { cause, causeReason, suppressed, suppressedReason } = noteOf(r.resourceAddress);
      return {
        id,
        set: {
          lastScan: scanId, lastSeenAt: now, severity: r.severity, severityRank: SEVERITY_RANK[r.severity], changeType: r.changeType ?? 'changed', diff,
          ...placementView(r), commit: r.commit ?? null, updatedAt: now, suppressed, suppressedReason,
          ...(again ? { accepted: null, redetectedScan: scanId, cause, causeReason } : {}),
        },
      };
    }));
    if (resolved.length) {
      // Exactly the open records this scan read and did not report: a record a concurrent scan
      // of the same config inserted meanwhile is not this scan's to resolve.
      await d.drifts.resolveMissing(orgId, repositoryConfig, resolved.map((o) => o._id), scanId, now, isoDay(now));
    }

    // Before the scan's own status: a retry after a failed write replaces it again. A targeted
    // re-check (scan.trigger) leaves the inventory as the config's last full scan recorded it:
    // its states were read seconds after, and rewriting every row of a large state (an update
    // of each kept row) would cost the re-check many times its own reading (docs/cloud-events.md).
    if (inventory && !scan.trigger) await d.managed.replace(orgId, repositoryConfig, scanId, inventory, now);

    // Drifts suppressed as learned noise are stored, and left out of the counts and events.
    const shown = inserted.filter((f) => !noteOf(f.resourceAddress).suppressed);
    const driftCount = [...byAddress.keys()].filter((a) => !noteOf(a).suppressed).length;
    const outcome = await finish(scan, {
      status: 'completed', completedAt: now, error: null, startedAt: scan.startedAt ?? now,
      driftCount, newDrifts: shown.length, resolvedDrifts: resolvedShown.length, stats: stats ?? null,
    });
    const about = { scanId, repositoryConfigId: repositoryConfig, repositoryName: scan.repositoryName };
    await ctx.bus.emit('scan.completed', orgId, { ...about, driftCount, newDrifts: shown.length, resolvedDrifts: resolvedShown.length, triggeredBy: scan.triggeredBy });
    if (shown.length) {
      await ctx.bus.emit('drift.detected', orgId, {
        ...about, count: shown.length,
        drifts: shown.slice(0, EVENT_DRIFTS).map((f) => {
          const { cause } = noteOf(f.resourceAddress);
          return {
            _id: f._id, resourceType: f.resourceType, resourceAddress: f.resourceAddress, severity: f.severity,
            cause: cause ? { ...cause, eventTime: cause.eventTime.toISOString() } : null,
          };
        }),
      });
    }
    if (resolvedShown.length) {
      await ctx.bus.emit('drift.resolved', orgId, {
        ...about, count: resolvedShown.length, resolvedBy: 'scan',
        drifts: resolvedShown.slice(0, EVENT_DRIFTS).map((o) => ({ _id: o._id, resourceAddress: o.resourceAddress, severity: o.severity })),
      });
    }
    return outcome;
  }

  async function recordScanResult(orgId: string, scanId: string, result: ScanResult): Promise<RecordOutcome> {
    if (!Value.Check(ScanResult, result)) {
      const problem = [...Value.Errors(ScanResult, result)][0];
      throw badRequest(`Invalid scan result: ${problem?.instancePath || 'result'} ${problem?.message ?? ''}`.trim());
    }
    const scan = await d.scans.get(orgId, scanId);
    if (!scan) throw notFound('Scan');
    if (FINAL.includes(scan.status)) return unchanged(scan);

    if (result.status === 'running') {
      if (scan.status !== 'pending') return unchanged(scan);
      const startedAt = new Date();
      const started = await ctx.once.runOnce(`scan:${scanId}:running`, orgId, () => d.scans.update(orgId, scanId, { status: 'running', startedAt }), { staleAfterMs: CLAIM_STALE_MS });
      if (!started.won) return unchanged(scan);
      const next = { ...scan, status: 'running' as const, startedAt };
      await d.onRunning(next);
      await ctx.bus.emit('scan.started', orgId, { scanId, repositoryConfigId: scan.repositoryConfig, repositoryName: scan.repositoryName, triggeredBy: scan.triggeredBy });
      return { changed: true, scan: scanView(next) };
    }

    const now = new Date();
    const final = await ctx.once.runOnce(`scan:${scanId}:final`, orgId, () => (result.status === 'completed'
      ? completed(scan, result.drifts, result.inventory, result.stats)
      : finish(scan, { status: 'failed', completedAt: now, error: result.error })), { staleAfterMs: CLAIM_STALE_MS });
    if (!final.won) return unchanged(scan);
    if (result.status === 'failed') {
      await ctx.bus.emit('scan.failed', orgId, { scanId, repositoryConfigId: scan.repositoryConfig, repositoryName: scan.repositoryName, error: result.error, triggeredBy: scan.triggeredBy });
    }
    return final.value;
  }

  return { recordScanResult };
}
