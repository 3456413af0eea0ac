// A claim on a scan is a lease with a generation (a fencing token). The embedded database's
// updates are not atomic with their filter, so a generation is taken by inserting its once key
// (`scan:<id>:lease:<gen>`, a unique index): of any number of takers one wins each generation.
// The scan record then names the generation, its holder and when the holder last showed life.
//
// - The built-in executor renews its lease while the engine runs; a runner's lease lives as
//   long as the runner heart-beats (the runners plugin's offline sweep hands its scans back).
// - A lease taken but not moved to running within LEASE_MS, or not renewed for LEASE_MS, is
//   handed back: the sweep takes the next generation (so no second sweep and no late claim of the
//   old one can), and the scan is pending again for the next claim.
// - A taker that dies between winning a generation's key and writing it to the scan strands
//   nobody for long: after LEASE_MS the next taker takes that generation over (takeOver).
// - A holder's final result is fenced: record.ts refuses it once the scan's generation moved on.
//   The hand-back holds the scan's final claim while it rewrites the scan, so a result and a
//   hand-back never both land (docs/scans.md "Leases").
import type { AppContext } from '../../core/context.ts';
import type { Scan, ScanLease, ScanStore } from './store.ts';

/** How long a lease holds without running (claim to running) or without renewal. */
export const LEASE_MS = 30_000;
/** How often the built-in executor renews its lease (and looks for a cancel). */
export const RENEW_MS = 10_000;

export const leaseKey = (scanId: string, gen: number) => `scan:${scanId}:lease:${gen}`;
export const genOf = (scan: Pick<Scan, 'lease'>) => scan.lease?.gen ?? 0;

/** Who may hold a lease: the built-in executor of some process, or a runner. */
export const executorHolder = 'executor';
export const runnerHolder = (runnerId: string) => `runner:${runnerId}`;

export function createLeases(ctx: AppContext, scans: ScanStore) {
  /**
   * A generation whose key is taken but that the scan does not name: its taker died between the
   * insert and the write (or is that slow). After LEASE_MS it may be taken over, by one taker
   * only (core/once.ts: the takeover is itself a unique key). A generation the scan names is held
   * (or was handed on) and is never taken over.
   */
  async function takeOver(orgId: string, scanId: string, gen: number): Promise<boolean> {
    const now = await scans.get(orgId, scanId);
    if (!now || genOf(now) >= gen) return false;
    return ctx.once.claim(leaseKey(scanId, gen), orgId, { staleAfterMs: LEASE_MS });
  }
  /** Wins generation `gen`'s key: fresh, or taken over from a taker that died before writing it. */
  const winGeneration = async (orgId: string, scanId: string, gen: number) =>
    (await ctx.once.claim(leaseKey(scanId, gen), orgId)) || takeOver(orgId, scanId, gen);

  return {
    /** The next generation of the scan's lease for `holder`, or null when another taker won it. */
    async take(scan: Scan, holder: string): Promise<number | null> {
      const gen = genOf(scan) + 1;
      if (!(await winGeneration(scan.orgId, scan._id, gen))) return null;
      // Written only over an older generation: a taker that won the key, stalled past LEASE_MS and
      // writes only now finds the generation written by whoever took it over, and loses it. (A
      // read then a write: the embedded database's conditional update is no more atomic.)
      const current = await scans.get(scan.orgId, scan._id);
      if (!current || genOf(current) >= gen) return null;
      const lease: ScanLease = { gen, holder, at: new Date() };
      await scans.update(scan.orgId, scan._id, { lease });
      return gen;
    },

    /**
     * The holder's sign of life; answers whether it still holds the lease of a scan still
     * running (false: cancelled, finished, or handed to another: its engine should stop).
     */
    async renew(orgId: string, scanId: string, gen: number): Promise<{ held: boolean; status: Scan['status'] | null }> {
      const scan = await scans.get(orgId, scanId);
      if (!scan) return { held: false, status: null };
      if (genOf(scan) !== gen || (scan.status !== 'running' && scan.status !== 'pending')) return { held: false, status: scan.status };
      await scans.renewLease(orgId, scanId, gen, new Date());
      return { held: true, status: scan.status };
    },

    /**
     * Hands a scan held under `gen` back to pending (its holder went away). False when the scan
     * moved on meanwhile: another hand-back or claim took the next generation, or it ended.
     */
    async handBack(orgId: string, scanId: string, gen: number): Promise<boolean> {
      if (!(await winGeneration(orgId, scanId, gen + 1))) return false;
      // Held while the scan is rewritten: a result of the old holder arriving now loses it.
      const finalKey = `scan:${scanId}:final`;
      if (!(await ctx.once.claim(finalKey, orgId))) return false;
      try {
        const scan = await scans.get(orgId, scanId);
        // Moved past `gen` already: this hand-back stalled past LEASE_MS and another took its generation over.
        if (!scan || (scan.status !== 'running' && scan.status !== 'pending') || genOf(scan) > gen) return false;
        await scans.update(orgId, scanId, { status: 'pending', startedAt: null, lease: { gen: gen + 1, holder: null, at: new Date() } });
        return true;
      } finally {
        await ctx.once.release(finalKey);
      }
    },
  };
}
export type Leases = ReturnType<typeof createLeases>;
