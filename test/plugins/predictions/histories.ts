// Two harder drift histories for the predictions tests (issue 37 point 3), beside the easy one of
// history.ts. Both are seeded, and both write drift records and completed scans with the fields
// the learn run reads (features.ts: repositoryConfig, resourceAddress, resourceType, detectedAt,
// resolvedAt, severityRank, commit, diff.changes[].attribute; scans' completedAt).
//  - noisy(): behaviours overlap (a resource can drift on a jittered schedule AND after its
//    repository's changes), occurrences are missed, every resource has background drifts, and a
//    third of the behaviours start or stop halfway.
//  - estates(): shaped like the scans of the moto estate (test/engine/world.ts: its addresses,
//    and each diff's attributes and severity as the engine reports them for the changes the moto
//    tests make out of band), scanned daily over simulated weeks: a change made out of band is
//    detected at the next daily scan, stays one open drift while it lasts, and is resolved at the
//    first scan after it is undone; the commit is the repository's head at that scan.
import { newId } from '../../../core/crypto.ts';
import { rng } from './history.ts';

const DAY = 86_400_000;
const SEV = ['low', 'medium', 'high', 'critical'] as const;
type Sev = (typeof SEV)[number];
export interface Made { drifts: Record<string, unknown>[]; scans: Record<string, unknown>[] }

/** A drift record as the drifts store keeps it; still open (resolvedAt null) when it ends after `now`. */
function record(orgId: string, repo: { id: string; name: string }, now: number, a: { address: string; type: string; attributes: string[]; severity: Sev; at: number; resolvedAt: number; commit: string | null; changeType?: string }): Record<string, unknown> {
  const id = newId();
  const rank = SEV.indexOf(a.severity) + 1;
  if (a.resolvedAt >= now) {
    return { ...record(orgId, repo, Infinity, a), _id: id, status: 'detected', openKey: 'open', lastSeenAt: new Date(now - DAY), resolvedAt: null, resolvedDay: null, resolvedBy: null };
  }
  return {
    _id: id, orgId, repositoryConfig: repo.id, repositoryName: repo.name, scan: newId(), lastScan: newId(), resourceType: a.type, resourceAddress: a.address,
    severity: a.severity, severityRank: rank, status: 'resolved', changeType: a.changeType ?? 'changed',
    diff: { changes: a.attributes.map((attribute) => ({ attribute, before: 'a', after: 'b' })) }, aiAnalysis: null, openKey: `resolved:${id}`,
    detectedAt: new Date(a.at), day: new Date(a.at).toISOString().slice(0, 10), lastSeenAt: new Date(a.resolvedAt - DAY), resolvedAt: new Date(a.resolvedAt),
    resolvedDay: new Date(a.resolvedAt).toISOString().slice(0, 10), resolvedBy: 'scan', statusChangedAt: null, feedback: null, updatedAt: new Date(a.at), commit: a.commit,
  };
}
const dailyScans = (orgId: string, repo: { id: string; name: string }, start: number, now: number) => {
  const out: Record<string, unknown>[] = [];
  for (let t = start; t < now; t += DAY) {
    out.push({ _id: newId(), orgId, repositoryConfig: repo.id, repositoryName: repo.name, branch: 'main', status: 'completed', triggeredBy: 'schedule', triggeredByUser: null,
      driftCount: 0, newDrifts: 0, resolvedDrifts: 0, error: null, createdAt: new Date(t), day: new Date(t).toISOString().slice(0, 10), startedAt: new Date(t), completedAt: new Date(t + 60_000) });
  }
  return out;
};

const NOISY_TYPES: [string, string[]][] = [
  ['aws_security_group', ['ingress', 'egress', 'tags.Owner']], ['aws_instance', ['instance_type', 'tags.Env', 'user_data']],
  ['aws_s3_bucket', ['server_side_encryption_configuration', 'tags.Team', 'policy']], ['aws_db_instance', ['allocated_storage', 'publicly_accessible', 'parameter_group_name']],
];

/** `perRepo` resources per repository over `days` days ending at `now`, behaviours overlapping and noisy. */
export function noisy(orgId: string, repos: { id: string; name: string }[], opts: { perRepo: number; days: number; now: number; seed: number }): Made {
  const rand = rng(opts.seed);
  const start = opts.now - opts.days * DAY;
  const drifts: Record<string, unknown>[] = [];
  const scans: Record<string, unknown>[] = [];
  const pick = <T>(a: readonly T[]) => a[Math.floor(rand() * a.length)];
  for (const repo of repos) {
    scans.push(...dailyScans(orgId, repo, start, opts.now));
    const changes: number[] = [];
    for (let t = start + rand() * 4 * DAY; t < opts.now; t += (3 + rand() * 12) * DAY) changes.push(t);
    const commitAt = (t: number) => { let c = -1; for (let i = 0; i < changes.length && changes[i] <= t; i++) c = i; return c < 0 ? null : `${repo.id.slice(-6)}n${c}`; };
    for (let i = 0; i < opts.perRepo; i++) {
      const [type, attrs] = NOISY_TYPES[i % NOISY_TYPES.length];
      const address = `${type}.r${i}`;
      const times: number[] = [];
      // Overlapping groups: each behaviour independently, so many resources have two.
      const scheduled = rand() < 0.45;
      const follower = rand() < 0.4;
      const period = 4 + rand() * 10;
      const miss = 0.15 + rand() * 0.25;
      const followP = 0.3 + rand() * 0.5;
      const noise = 0.004 + rand() * 0.02;
      // A third of the behaviours live only in one half of the history.
      const regime = rand();
      const live = (t: number) => regime < 0.17 ? t < start + opts.days * DAY / 2 : regime < 0.33 ? t >= start + opts.days * DAY / 2 : true;
      if (scheduled) for (let t = start + rand() * period * DAY; t < opts.now; t += (period + (rand() - 0.5) * 3) * DAY) if (live(t) && rand() > miss) times.push(t);
      if (follower) for (const c of changes) { const t = c + rand() * 2 * DAY; if (t < opts.now && live(t) && rand() < followP) times.push(t); }
      for (let t = start; t < opts.now; t += DAY) if (rand() < noise) times.push(t + rand() * DAY);
      if (!times.length) times.push(start + rand() * opts.days * DAY);
      const attributes = [pick(attrs), ...(rand() < 0.3 ? [pick(attrs)] : [])].filter((v, k, a) => a.indexOf(v) === k);
      times.sort((a, b) => a - b);
      times.forEach((at, k) => {
        // Resolved before the next occurrence: one open drift per resource at a time, as the store keeps them.
        const resolvedAt = Math.min(at + (0.3 + rand() * 2) * DAY, (times[k + 1] ?? Infinity) - 3_600_000);
        drifts.push(record(orgId, repo, opts.now, { address, type, attributes, severity: pick(SEV), at, resolvedAt, commit: commitAt(at) }));
      });
    }
  }
  return { drifts, scans };
}

/** The moto estate's resources (test/engine/world.ts) and what the engine reports when each is changed out of band. */
const ESTATE: { address: string; type: string; attributes: string[]; severity: Sev; changeType?: string }[] = [
  { address: 'aws_security_group.web', type: 'aws_security_group', attributes: ['ingress'], severity: 'critical' },
  { address: 'aws_security_group_rule.https', type: 'aws_security_group_rule', attributes: ['cidr_blocks'], severity: 'high' },
  { address: 'module.net["a"].aws_security_group.extra', type: 'aws_security_group', attributes: ['tags.Env'], severity: 'low' },
  { address: 'aws_instance.web', type: 'aws_instance', attributes: ['instance_type'], severity: 'medium' },
  { address: 'aws_s3_bucket_versioning.data', type: 'aws_s3_bucket_versioning', attributes: ['versioning_configuration.0.status'], severity: 'medium' },
  { address: 'aws_s3_bucket_public_access_block.data', type: 'aws_s3_bucket_public_access_block', attributes: ['block_public_acls', 'block_public_policy'], severity: 'critical' },
  { address: 'aws_s3_bucket.data', type: 'aws_s3_bucket', attributes: ['tags.Team'], severity: 'low' },
  { address: 'aws_iam_role.app', type: 'aws_iam_role', attributes: ['assume_role_policy'], severity: 'high' },
  { address: 'aws_iam_policy.app', type: 'aws_iam_policy', attributes: ['policy'], severity: 'high' },
];

/**
 * `repos.length` copies of the estate scanned daily (06:00) for `weeks` weeks. Who changes what
 * out of band (each estate draws its own rates):
 *  - on-call opens the web group's ingress on some weekday afternoons, closed 1-3 days later;
 *  - a weekly batch resizes the instance on Friday evenings (sometimes skipped), put back Monday;
 *  - the deploy pipeline tags the extra group after a deploy (commit), until the next deploy;
 *  - versioning is suspended after some deploys for a day or two;
 *  - IAM and public-access edits are rare, at random.
 */
export function estates(orgId: string, repos: { id: string; name: string }[], opts: { weeks: number; now: number; seed: number }): Made {
  const rand = rng(opts.seed);
  const start = Math.floor((opts.now - opts.weeks * 7 * DAY) / DAY) * DAY;
  const drifts: Record<string, unknown>[] = [];
  const scans: Record<string, unknown>[] = [];
  for (const repo of repos) {
    scans.push(...dailyScans(orgId, repo, start + 6 * 3_600_000, opts.now));
    const deploys: number[] = [];
    for (let t = start + rand() * 3 * DAY; t < opts.now; t += (2 + rand() * 9) * DAY) deploys.push(t);
    const head = (t: number) => { let c = -1; for (let i = 0; i < deploys.length && deploys[i] <= t; i++) c = i; return c < 0 ? null : `${repo.id.slice(-6)}d${c}`; };
    // Changes out of band: [resource index, from, to].
    const changes: [number, number, number][] = [];
    const onCall = 0.05 + rand() * 0.2;
    const batchSkip = rand() * 0.4;
    const tagging = 0.4 + rand() * 0.5;
    for (let day = start; day < opts.now; day += DAY) {
      const weekday = new Date(day).getUTCDay();
      if (weekday >= 1 && weekday <= 5 && rand() < onCall) changes.push([0, day + 14 * 3_600_000, day + (1 + rand() * 2) * DAY]);
      if (weekday === 5 && rand() > batchSkip) changes.push([3, day + 20 * 3_600_000, day + 3 * DAY + 9 * 3_600_000]);
      if (rand() < 0.006) changes.push([7 + Math.floor(rand() * 2), day + rand() * DAY, day + (1 + rand() * 4) * DAY]);
      if (rand() < 0.004) changes.push([5, day + rand() * DAY, day + (0.5 + rand()) * DAY]);
      if (rand() < 0.01) changes.push([Math.floor(rand() * ESTATE.length), day + rand() * DAY, day + (0.5 + rand() * 3) * DAY]);
    }
    deploys.forEach((d, i) => {
      if (rand() < tagging) changes.push([2, d + rand() * 0.5 * DAY, deploys[i + 1] ?? opts.now + DAY]);
      if (rand() < 0.3) changes.push([4, d + rand() * DAY, d + (1 + rand()) * DAY]);
    });
    // The daily scans: a change is seen at the first scan after it, resolved at the first after it ends.
    const scanAfter = (t: number) => start + 6 * 3_600_000 + Math.ceil((t - start - 6 * 3_600_000) / DAY) * DAY;
    // One open drift per resource at a time: a change while it is open extends it.
    const open = new Map<number, { at: number; until: number }>();
    const spans: { i: number; at: number; until: number }[] = [];
    for (const [i, from, to] of changes.sort((a, b) => a[1] - b[1])) {
      const seen = scanAfter(from);
      const gone = scanAfter(to);
      if (seen >= gone || seen >= opts.now) continue; // undone before any scan saw it
      const cur = open.get(i);
      if (cur && cur.until >= seen) { cur.until = Math.max(cur.until, gone); continue; }
      const span = { i, at: seen, until: gone };
      open.set(i, span);
      spans.push(span);
    }
    for (const s of spans) drifts.push(record(orgId, repo, opts.now, { ...ESTATE[s.i], at: s.at, resolvedAt: s.until, commit: head(s.at) }));
  }
  return { drifts, scans };
}
