// A drift's life as scans see it: drifts.reconcile({scan, reported, at, since}) compares one
// completed scan's reported drifts with the config's open records and decides, per address,
// new (first detected), found again (same diff and placement), re-diffed (its diff or
// placement changed), reopened (its accepted diff no longer holds: reported again) or
// resolved (open before, not reported now; ignored ones stay). The annotators attached to
// the drifts plugin (annotators.ts) note causes and learned noise first; then it writes.
//
// Statements for a scan with N drifts, whatever N is: read the config's open drifts once,
// insertMany the new ones, one updateMany per distinct (severity, changeType, commit,
// suppression) among those found again, one bulk write for the re-diffed and reopened ones
// (a command per drift inside it), one updateMany for those resolved.
//
// Exactly once is the caller's (plugins/scans/record.ts claims `scan:<id>:final`); a retry of
// the same scan after a failed write finds the records its first attempt inserted and counts
// them as new again, and those it resolved (openKey `resolved:<scanId>`) as resolved again, so
// the retry reports what the first attempt would have.
import { newId } from '../../core/crypto.ts';
import { storableKeys } from '../../core/db.ts';
import { NO_ANNOTATION, type Annotators } from './annotators.ts';
import type { LifecycleStore } from './lifecycle-store.ts';
import { placementView, type ReportedDrift } from './schemas.ts';
import { isoDay } from './trend.ts';
import { OPEN, SEVERITY_RANK, type Drift, type DriftAnnotation, type DriftCause } from './types.ts';

/** The scan being recorded, as reconcile needs it (plugins/scans' Scan fits). */
export interface ReconcileScan {
  orgId: string; _id: string; repositoryConfig: string; repositoryName: string;
  /** A targeted re-check read only these addresses: nothing else is found again, resolved, detected or counted by it. */
  trigger?: { addresses: string[] } | null;
}
export interface ReconcileInput {
  scan: ReconcileScan;
  reported: ReportedDrift[];
  at: Date;
  /** When the config's previous completed scan started (null: none); asked only when an annotator is attached. */
  since(): Promise<Date | null>;
}
/** What the scan's record and events need: the counts and the drifts shown (learned noise left out). */
export interface Reconciled {
  /** Distinct reported addresses not suppressed as learned noise. */
  driftCount: number;
  /** First detected by this scan, or reported again after their accepted diff changed. */
  detected: (Pick<Drift, '_id' | 'resourceType' | 'resourceAddress' | 'severity'> & { cause: DriftCause | null })[];
  /** Resolved by this scan. */
  resolved: Pick<Drift, '_id' | 'resourceAddress' | 'severity'>[];
}

type Open = Awaited<ReturnType<LifecycleStore['openOf']>>[number];
interface AgainGroup { severity: Drift['severity']; changeType: Drift['changeType']; commit: string | null; suppressed: boolean; suppressedReason: string | null; ids: string[] }
interface Rediffed { id: string; r: ReportedDrift; diff: Drift['diff']; reopened?: true }

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The decision for every address, before any write. */
function decide(scan: ReconcileScan, at: Date, byAddress: Map<string, ReportedDrift>, open: Open[], noteOf: (address: string) => DriftAnnotation) {
  const openByAddress = new Map(open.map((o) => [o.resourceAddress, o]));
  const fresh: Drift[] = [];
  // Found again unchanged: one updateMany per group; re-diffed (or moved: a line added above its
  // block) and reopened ones each get their own update inside one bulk write.
  const again = new Map<string, AgainGroup>();
  const rediffed: Rediffed[] = [];
  // Accepted drifts (Drift Watch baseline) found with another diff: the acceptance ends and the
  // drift is reported again, with the new ones, under its own record.
  const reopened: Drift[] = [];
  // Open drifts this very scan inserted: a retry after a failed write.
  const ownEarlier: Drift[] = [];
  const seenAgain = (existing: Open, r: ReportedDrift) => {
    const diff = storableKeys(r.diff ?? {}) as Drift['diff'];
    const note = noteOf(r.resourceAddress);
    if (existing.accepted && !same(diff, existing.accepted.diff ?? {})) {
      reopened.push({ ...existing, resourceType: r.resourceType, severity: r.severity, ...note });
      rediffed.push({ id: existing._id, r, diff, reopened: true });
      return;
    }
    if (!same(placementView(r), placementView(existing)) || !same(diff, existing.diff ?? {})) { rediffed.push({ id: existing._id, r, diff }); return; }
    const changeType = r.changeType ?? 'changed';
    const key = `${r.severity}|${changeType}|${r.commit ?? ''}|${note.suppressedReason ?? ''}`;
    if (!again.has(key)) again.set(key, { severity: r.severity, changeType, commit: r.commit ?? null, suppressed: note.suppressed, suppressedReason: note.suppressedReason, ids: [] });
    again.get(key)!.ids.push(existing._id);
  };
  for (const r of byAddress.values()) {
    const existing = openByAddress.get(r.resourceAddress);
    if (existing?.scan === scan._id || existing?.redetectedScan === scan._id) ownEarlier.push(existing);
    if (existing) { seenAgain(existing, r); continue; }
    fresh.push({
      _id: newId(), orgId: scan.orgId, repositoryConfig: scan.repositoryConfig, repositoryName: scan.repositoryName, scan: scan._id, lastScan: scan._id,
      resourceType: r.resourceType, resourceAddress: r.resourceAddress, severity: r.severity, severityRank: SEVERITY_RANK[r.severity],
      status: 'detected', changeType: r.changeType ?? 'changed', diff: storableKeys(r.diff ?? {}) as Drift['diff'], aiAnalysis: r.aiAnalysis ?? null, openKey: OPEN,
      detectedAt: at, day: isoDay(at), lastSeenAt: at, resolvedAt: null, resolvedDay: null, resolvedBy: null,
      statusChangedAt: null, feedback: null, updatedAt: at, ...placementView(r), commit: r.commit ?? null, ...noteOf(r.resourceAddress),
    });
  }
  // Ignored drifts stay ignored when they disappear: ignoring is the user's decision about that resource.
  const resolved = open.filter((o) => !byAddress.has(o.resourceAddress) && o.status !== 'ignored');
  return { fresh, again, rediffed, reopened, ownEarlier, resolved };
}

export function createReconciler(d: { store: LifecycleStore; annotators: Annotators }) {
  /** The annotators' notes on the addresses read; none (no read of the previous scan) when nothing is attached. */
  async function annotate(input: ReconcileInput, reported: ReportedDrift[], open: Open[]) {
    if (!d.annotators.any) return new Map<string, Partial<DriftAnnotation>>();
    const openAt = new Map(open.map((o) => [o.resourceAddress, o]));
    const fresh = new Set(reported.filter((r) => !openAt.has(r.resourceAddress) || openAt.get(r.resourceAddress)!.accepted).map((r) => r.resourceAddress));
    const { scan, at } = input;
    return d.annotators.annotate({
      orgId: scan.orgId, repositoryConfig: scan.repositoryConfig, scanId: scan._id, at, reported, previous: open, fresh, since: await input.since(),
    });
  }

  async function write(scan: ReconcileScan, at: Date, plan: ReturnType<typeof decide>, noteOf: (address: string) => DriftAnnotation) {
    const { orgId, _id: scanId, repositoryConfig } = scan;
    // A scan of the same config completing at the same moment may have inserted some of these
    // first (the open-record unique index refuses ours): they are found again.
    const taken = new Set(await d.store.insertNew(orgId, plan.fresh));
    if (taken.size) await d.store.seenAgainByAddress(orgId, repositoryConfig, [...taken], { lastScan: scanId, lastSeenAt: at, updatedAt: at });
    for (const g of plan.again.values()) {
      await d.store.seenAgain(orgId, repositoryConfig, g.ids, {
        lastScan: scanId, lastSeenAt: at, severity: g.severity, severityRank: SEVERITY_RANK[g.severity], changeType: g.changeType, commit: g.commit, updatedAt: at,
        suppressed: g.suppressed, suppressedReason: g.suppressedReason,
      });
    }
    await d.store.rewrite(orgId, plan.rediffed.map(({ id, r, diff, reopened }) => {
      const { cause, causeReason, suppressed, suppressedReason } = noteOf(r.resourceAddress);
      return {
        id,
        set: {
          lastScan: scanId, lastSeenAt: at, severity: r.severity, severityRank: SEVERITY_RANK[r.severity], changeType: r.changeType ?? 'changed', diff,
          ...placementView(r), commit: r.commit ?? null, updatedAt: at, suppressed, suppressedReason,
          ...(reopened ? { accepted: null, redetectedScan: scanId, cause, causeReason } : {}),
        },
      };
    }));
    // Exactly the open records this scan read and did not report: a record a concurrent scan of
    // the same config inserted meanwhile is not this scan's to resolve.
    if (plan.resolved.length) await d.store.resolveMissing(orgId, repositoryConfig, plan.resolved.map((o) => o._id), scanId, at, isoDay(at));
    return taken;
  }

  return async function reconcile(input: ReconcileInput): Promise<Reconciled> {
    const { scan, at } = input;
    // One record per resource address; a repeated address in one report counts once (the last wins).
    const read = scan.trigger ? new Set(scan.trigger.addresses) : null;
    const byAddress = new Map(input.reported.filter((r) => !read || read.has(r.resourceAddress)).map((r) => [r.resourceAddress, r]));
    const open = (await d.store.openOf(scan.orgId, scan.repositoryConfig)).filter((o) => !read || read.has(o.resourceAddress));
    const notes = await annotate(input, [...byAddress.values()], open);
    const noteOf = (address: string): DriftAnnotation => ({ ...NO_ANNOTATION, ...notes.get(address) });

    const plan = decide(scan, at, byAddress, open, noteOf);
    // Resolved by an earlier attempt of this very scan (a retry after a partial write): no longer
    // open, so not in the plan, and still this scan's to count.
    const resolvedEarlier = (await d.store.resolvedByScan(scan.orgId, scan.repositoryConfig, scan._id)).filter((o) => !read || read.has(o.resourceAddress));
    const taken = await write(scan, at, plan, noteOf);
    const inserted = [...plan.ownEarlier, ...plan.fresh.filter((f) => !taken.has(f.resourceAddress)), ...plan.reopened];
    // Drifts suppressed as learned noise are stored, and left out of the counts and events;
    // resolving one is not news either.
    return {
      driftCount: [...byAddress.keys()].filter((a) => !noteOf(a).suppressed).length,
      detected: inserted.filter((f) => !noteOf(f.resourceAddress).suppressed).map((f) => ({
        _id: f._id, resourceType: f.resourceType, resourceAddress: f.resourceAddress, severity: f.severity, cause: noteOf(f.resourceAddress).cause,
      })),
      resolved: [...resolvedEarlier, ...plan.resolved].filter((o) => !o.suppressed).map((o) => ({ _id: o._id, resourceAddress: o.resourceAddress, severity: o.severity })),
    };
  };
}
export type Reconcile = ReturnType<typeof createReconciler>;
