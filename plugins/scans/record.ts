// The one domain function through which any executor (the detection engine, a runner)
// reports a scan's result: recordScanResult(orgId, scanId, result). Offered to other
// plugins as part of the scans service (execution.ts uses it for the executor and runners).
// Scans claim, finish and announce; what a completed result changes on the config's drifts
// is the drifts plugin's decision (drifts.reconcile, plugins/drifts/reconcile.ts).
//
// Exactly once (DESIGN.md): a state change that must happen once is decided by
// ctx.once.claim. `scan:<id>:running` for the start, and one key, `scan:<id>:final`, for
// every terminal state (completed, failed, cancelled): a completion racing a timeout or a
// cancel ends the scan one way only. A repeated report, or the same report ten times at
// once, loses the claim and changes nothing.
//
// Validated once: recordScanResult checks a result no route checked (the in-process engine,
// the timeout job, tests); a runner's report was checked by its route's schema
// (POST /api/runners/jobs/status) and arrives through recordChecked.
//
// Statements for a completed scan with N drifts, whatever N is: read the scan, claim,
// reconcile the drifts (a handful of statements, reconcile.ts), replace the inventory,
// update the config, update the scan. Counters are taken from the records.
import { Value } from 'typebox/value';
import type { AppContext } from '../../core/context.ts';
import { badRequest, conflict, notFound } from '../../core/errors.ts';
import type { DriftService } from '../drifts/service.ts';
import type { Reconciled } from '../drifts/reconcile.ts';
import { causeView } from '../drifts/schemas.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import { FINAL, type Scan, type ScanStore } from './store.ts';
import { ScanResult, scanView, type InventoryItem, type ReportedDrift, type ScanStats } from './schemas.ts';
import type { ManagedStore } from './managed-store.ts';
import { genOf } from './lease.ts';

/** Longer than any result write takes (5,000 drifts: seconds); after it a claim's holder is presumed dead. */
const CLAIM_STALE_MS = 10 * 60_000;

/** Events carry at most this many drifts; the count is always complete. */
const EVENT_DRIFTS = 100;

export interface RecordOutcome { changed: boolean; scan: ReturnType<typeof scanView> }

export interface ScanResults {
  /** A result no route validated: checked here (400 when malformed), then recorded (`gen`: as recordChecked). */
  recordScanResult(orgId: string, scanId: string, result: ScanResult, gen?: number): Promise<RecordOutcome>;
  /**
   * A result its route's schema already validated (a runner's report): recorded as it is.
   * `gen`: the lease generation the reporter holds (lease.ts); a result under a generation the
   * scan has moved past is refused (409), so a holder presumed gone cannot overwrite its successor.
   */
  recordChecked(orgId: string, scanId: string, result: ScanResult, gen?: number): Promise<RecordOutcome>;
}

interface Deps {
  scans: ScanStore; drifts: Pick<DriftService, 'reconcile'>; configs: Pick<RepoConfigService, 'recordScan'>; onRunning(scan: Scan): Promise<void>;
  /** The config's managed resources, replaced by each completed report carrying an inventory. */
  managed: Pick<ManagedStore, 'replace'>;
}

/** scan.completed, then drift.detected and drift.resolved when the scan changed any shown drift. */
async function announce(ctx: AppContext, scan: Scan, r: Reconciled) {
  const about = { scanId: scan._id, repositoryConfigId: scan.repositoryConfig, repositoryName: scan.repositoryName };
  await ctx.bus.emit('scan.completed', scan.orgId, { ...about, driftCount: r.driftCount, newDrifts: r.detected.length, resolvedDrifts: r.resolved.length, triggeredBy: scan.triggeredBy });
  if (r.detected.length) {
    await ctx.bus.emit('drift.detected', scan.orgId, {
      ...about, count: r.detected.length,
      drifts: r.detected.slice(0, EVENT_DRIFTS).map((f) => ({
        _id: f._id, resourceType: f.resourceType, resourceAddress: f.resourceAddress, severity: f.severity, cause: f.cause ? causeView(f.cause) : null,
      })),
    });
  }
  if (r.resolved.length) {
    await ctx.bus.emit('drift.resolved', scan.orgId, { ...about, count: r.resolved.length, resolvedBy: 'scan', drifts: r.resolved.slice(0, EVENT_DRIFTS) });
  }
}

const staleLease = () => conflict('The scan was handed to another executor after this one stopped showing life; this report is refused');

export function createRecorder(ctx: AppContext, d: Deps): ScanResults {
  const unchanged = (scan: Scan): RecordOutcome => ({ changed: false, scan: scanView(scan) });

  /** The scan's own final status is the last write: until it lands, a retry redoes the rest. */
  async function finish(scan: Scan, set: Partial<Scan>) {
    await d.configs.recordScan(scan.orgId, scan.repositoryConfig, set.completedAt ?? new Date(), set.status!);
    await d.scans.update(scan.orgId, scan._id, set);
    return { changed: true, scan: scanView({ ...scan, ...set }) };
  }

  async function completed(scan: Scan, reported: ReportedDrift[], inventory: InventoryItem[] | undefined, stats: ScanStats | undefined): Promise<RecordOutcome> {
    const { orgId, repositoryConfig } = scan;
    const now = new Date();
    const outcome = await d.drifts.reconcile({
      scan, reported, at: now,
      // The annotators' window opens when the config's previous completed scan started.
      since: async () => {
        const previous = (await d.scans.recent(orgId, { repositoryConfig: [repositoryConfig], status: 'completed' }, 1))[0];
        return previous ? previous.startedAt ?? previous.createdAt : null;
      },
    });
    // Before the scan's own status: a retry after a failed write replaces it again. A targeted
    // re-check (scan.trigger) leaves the inventory as the config's last full scan recorded it:
    // its states were read seconds after, and rewriting every row of a large state (an update
    // of each kept row) would cost the re-check many times its own reading (docs/cloud-events.md).
    if (inventory && !scan.trigger) await d.managed.replace(orgId, repositoryConfig, scan._id, inventory, now);
    const finished = await finish(scan, {
      status: 'completed', completedAt: now, error: null, startedAt: scan.startedAt ?? now,
      driftCount: outcome.driftCount, newDrifts: outcome.detected.length, resolvedDrifts: outcome.resolved.length, stats: stats ?? null,
    });
    await announce(ctx, scan, outcome);
    return finished;
  }

  async function recordChecked(orgId: string, scanId: string, result: ScanResult, gen?: number): Promise<RecordOutcome> {
    const scan = await d.scans.get(orgId, scanId);
    if (!scan) throw notFound('Scan');
    if (FINAL.includes(scan.status)) return unchanged(scan);
    if (gen !== undefined && genOf(scan) !== gen) throw staleLease();

    if (result.status === 'running') {
      if (scan.status !== 'pending') return unchanged(scan);
      const startedAt = new Date();
      // One start per lease generation: a scan handed back (lease.ts) starts again under the next.
      const key = gen === undefined ? `scan:${scanId}:running` : `scan:${scanId}:running:${gen}`;
      const started = await ctx.once.runOnce(key, orgId, () => d.scans.update(orgId, scanId, { status: 'running', startedAt }), { staleAfterMs: CLAIM_STALE_MS });
      if (!started.won) return unchanged(scan);
      const next = { ...scan, status: 'running' as const, startedAt };
      await d.onRunning(next);
      await ctx.bus.emit('scan.started', orgId, { scanId, repositoryConfigId: scan.repositoryConfig, repositoryName: scan.repositoryName, triggeredBy: scan.triggeredBy });
      return { changed: true, scan: scanView(next) };
    }

    const now = new Date();
    const write = () => (result.status === 'completed'
      ? completed(scan, result.drifts, result.inventory, result.stats)
      : finish(scan, { status: 'failed', completedAt: now, error: result.error }));
    const final = await ctx.once.runOnce(`scan:${scanId}:final`, orgId, async () => {
      // Fenced: a hand-back holds this claim while it moves the generation on, so the generation
      // read now, with the claim held, is the one that decides (lease.ts).
      if (gen !== undefined && genOf((await d.scans.get(orgId, scanId)) ?? scan) !== gen) throw staleLease();
      return write();
    }, { staleAfterMs: CLAIM_STALE_MS });
    if (!final.won) return unchanged(scan);
    if (result.status === 'failed') {
      await ctx.bus.emit('scan.failed', orgId, { scanId, repositoryConfigId: scan.repositoryConfig, repositoryName: scan.repositoryName, error: result.error, triggeredBy: scan.triggeredBy });
    }
    return final.value;
  }

  async function recordScanResult(orgId: string, scanId: string, result: ScanResult, gen?: number): Promise<RecordOutcome> {
    if (!Value.Check(ScanResult, result)) {
      const problem = [...Value.Errors(ScanResult, result)][0];
      throw badRequest(`Invalid scan result: ${problem?.instancePath || 'result'} ${problem?.message ?? ''}`.trim());
    }
    return recordChecked(orgId, scanId, result, gen);
  }

  return { recordScanResult, recordChecked };
}
