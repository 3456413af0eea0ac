// A synthetic drift history for the predictions tests and bench, written to the stores in bulk:
// per repository, resources that drift on a schedule (every `period` days), resources that drift
// right after every change (new commit) of their repository, and resources that drifted once at
// the start and never again. Deterministic for a seed.
import { newId } from '../../../core/crypto.ts';
import type { Db } from 'mongodb';

const DAY = 86_400_000;
export type Behaviour = 'scheduled' | 'follower' | 'never';
export interface Synthetic { drifts: Record<string, unknown>[]; scans: Record<string, unknown>[]; behaviour: Map<string, Behaviour> }

export function rng(seed: number) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}
const TYPES = ['aws_security_group', 'aws_instance', 'aws_s3_bucket', 'aws_db_instance'];
const ATTRS: Record<Behaviour, string[]> = {
  scheduled: ['ingress', 'tags.Owner'], follower: ['instance_type', 'tags.Env'], never: ['server_side_encryption_configuration'],
};
const SEV = ['low', 'medium', 'high', 'critical'] as const;

/**
 * `perKind` resources of each behaviour in each repository, over `days` days ending at `now`;
 * repository changes every 6 to 20 days.
 */
export function synthesize(orgId: string, repos: { id: string; name: string }[], opts: { perKind: number; days: number; now: number; seed?: number; period?: number }): Synthetic {
  const rand = rng(opts.seed ?? 7);
  const start = opts.now - opts.days * DAY;
  const period = opts.period ?? 7;
  const drifts: Record<string, unknown>[] = [];
  const scans: Record<string, unknown>[] = [];
  const behaviour = new Map<string, Behaviour>();
  for (const repo of repos) {
    const changes: number[] = [];
    for (let t = start + rand() * 5 * DAY; t < opts.now; t += (6 + rand() * 14) * DAY) changes.push(t);
    const commitAt = (t: number) => { let c = -1; for (let i = 0; i < changes.length && changes[i] <= t; i++) c = i; return c < 0 ? null : `${repo.id.slice(-6)}c${c}`; };
    for (let t = start; t < opts.now; t += DAY) {
      scans.push({ _id: newId(), orgId, repositoryConfig: repo.id, repositoryName: repo.name, branch: 'main', status: 'completed', triggeredBy: 'schedule', triggeredByUser: null,
        driftCount: 0, newDrifts: 0, resolvedDrifts: 0, error: null, createdAt: new Date(t), day: new Date(t).toISOString().slice(0, 10), startedAt: new Date(t), completedAt: new Date(t + 60_000) });
    }
    const add = (address: string, type: string, kind: Behaviour, t: number) => {
      const id = newId();
      const sevIdx = Math.floor(rand() * 4);
      drifts.push({
        _id: id, orgId, repositoryConfig: repo.id, repositoryName: repo.name, scan: newId(), lastScan: newId(), resourceType: type, resourceAddress: address,
        severity: SEV[sevIdx], severityRank: sevIdx + 1, status: 'resolved', changeType: 'changed',
        diff: { changes: ATTRS[kind].map((attribute) => ({ attribute, before: 'a', after: 'b' })) }, aiAnalysis: null, openKey: `resolved:${id}`,
        detectedAt: new Date(t), day: new Date(t).toISOString().slice(0, 10), lastSeenAt: new Date(t), resolvedAt: new Date(t + DAY / 2),
        resolvedDay: new Date(t + DAY / 2).toISOString().slice(0, 10), resolvedBy: 'scan', statusChangedAt: null, feedback: null, updatedAt: new Date(t), commit: commitAt(t),
      });
    };
    for (const kind of ['scheduled', 'follower', 'never'] as Behaviour[]) {
      for (let i = 0; i < opts.perKind; i++) {
        const address = `${TYPES[i % TYPES.length]}.${kind}_${i}`;
        const type = TYPES[i % TYPES.length];
        behaviour.set(`${repo.id}|${address}`, kind);
        if (kind === 'scheduled') {
          for (let t = start + rand() * period * DAY; t < opts.now; t += (period - 0.5 + rand()) * DAY) add(address, type, kind, t);
        } else if (kind === 'follower') {
          for (const c of changes) { const t = c + (0.05 + rand() * 0.5) * DAY; if (t < opts.now) add(address, type, kind, t); }
        } else {
          add(address, type, kind, start + rand() * 7 * DAY);
        }
      }
    }
  }
  return { drifts, scans, behaviour };
}

/** Inserts the history in bulk (insertMany in chunks). */
export async function insertHistory(db: Db, h: Pick<Synthetic, 'drifts' | 'scans'>) {
  for (let i = 0; i < h.drifts.length; i += 1000) await db.collection('drifts').insertMany(h.drifts.slice(i, i + 1000), { ordered: false });
  for (let i = 0; i < h.scans.length; i += 1000) await db.collection('scans').insertMany(h.scans.slice(i, i + 1000), { ordered: false });
}
