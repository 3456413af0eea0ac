// Features of a managed resource at a point in time, computed from the organization's own
// drift records, scans and the commits its scans read (docs/predictions.md lists each one's
// meaning). Pure: the learn run (learn.ts) loads the history and calls these.
//
// A managed resource is one (repository config, resource address) the organization's drift
// records name: the service keeps no inventory of resources that never drifted.
const DAY = 86_400_000;
const CAP_DAYS = 365;

export const CHANGE_CLASSES = ['tags', 'network_exposure', 'encryption', 'size', 'other'] as const;
export type ChangeClass = (typeof CHANGE_CLASSES)[number];
const CLASS_RULES: [Exclude<ChangeClass, 'other'>, RegExp][] = [
  ['tags', /(^|[._])tags?(_all)?($|[._])|label/i],
  ['encryption', /encrypt|kms|ssl|tls|sse|cert|cipher/i],
  ['network_exposure', /ingress|egress|cidr|port|public|security_group|subnet|vpc|acl|firewall|network|ip_?address|listener|endpoint/i],
  ['size', /instance_type|size|capacity|memory|cpu|storage|count|class|sku|tier|volume|throughput|iops/i],
];
/** The change class of one changed attribute name. */
export function classOf(attribute: string): ChangeClass {
  for (const [c, re] of CLASS_RULES) if (re.test(attribute)) return c;
  return 'other';
}

export const FEATURES = [
  'drifts_total', 'drifts_7d', 'drifts_30d', 'last_drift_recency', 'first_drift_recency', 'mean_interval_days',
  'periodic_due', 'open_drift', 'type_drifts_30d_per_resource', 'type_base_rate', 'type_drift_recency',
  'scan_recency', 'repo_churn_30d', 'repo_change_recency', 'follows_repo_change',
  'share_tags', 'share_network_exposure', 'share_encryption', 'share_size', 'attributes_per_drift', 'severity_mean', 'severity_high_share',
] as const;
export type FeatureName = (typeof FEATURES)[number];

/** One drift record as the learn run keeps it (compact). */
export interface DriftEvent {
  repo: string; address: string; type: string;
  t: number; resolved: number | null; severity: number; commit: string | null;
  /** Bit per CHANGE_CLASSES index of the attributes its diff changed. */
  classes: number; attributes: number;
}
export interface ScanEvent { repo: string; t: number }

interface Resource {
  key: string; repo: string; address: string; type: string;
  events: DriftEvent[]; times: number[];
  /** Prefix sums over events: follows-change flag, class flags (5), attributes, severity, high severity. */
  pre: Float64Array[];
}
export interface History {
  resources: Resource[];
  repoChanges: Map<string, number[]>;
  repoScans: Map<string, number[]>;
  typeTimes: Map<string, number[]>;
  typeFirstSeen: Map<string, number[]>;
  first: number | null;
  drifts: number;
}

/** Index of the first element > x (count of elements <= x) in a sorted array. */
function upper(a: number[], x: number): number {
  let lo = 0; let hi = a.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (a[mid] <= x) lo = mid + 1; else hi = mid; }
  return lo;
}
const days = (ms: number) => Math.min(CAP_DAYS, Math.max(0, ms / DAY));
/**
 * Recency as exp(−days / scale), in (0, 1]: bounded, so a resource quiet for longer than any
 * training window saw is not extrapolated linearly (a raw day count was, and ranked resources
 * that never drift again as risky once they had been quiet longer than the training windows).
 */
const decay = (ms: number, scaleDays: number) => Math.exp(-Math.max(0, ms / DAY) / scaleDays);
const FOLLOW_MS = 2 * DAY;
const PRE = 10; // follows, 5 classes, attributes, severity, high, (spare)

export function buildHistory(drifts: DriftEvent[], scans: ScanEvent[]): History {
  drifts.sort((a, b) => a.t - b.t);
  const byKey = new Map<string, Resource>();
  const repoCommitFirst = new Map<string, Map<string, number>>();
  const typeTimes = new Map<string, number[]>();
  for (const d of drifts) {
    const key = `${d.repo}\u0000${d.address}`;
    let r = byKey.get(key);
    if (!r) {
      r = { key, repo: d.repo, address: d.address, type: d.type, events: [], times: [], pre: [] };
      byKey.set(key, r);
    }
    r.events.push(d); r.times.push(d.t);
    if (d.commit) {
      const m = repoCommitFirst.get(d.repo) ?? new Map<string, number>();
      repoCommitFirst.set(d.repo, m);
      if (!m.has(d.commit)) m.set(d.commit, d.t);
    }
    const tt = typeTimes.get(d.type) ?? [];
    typeTimes.set(d.type, tt);
    tt.push(d.t);
  }
  const repoChanges = new Map([...repoCommitFirst].map(([repo, m]) => [repo, [...m.values()].sort((a, b) => a - b)]));
  const repoScans = new Map<string, number[]>();
  for (const s of scans) { const a = repoScans.get(s.repo) ?? []; repoScans.set(s.repo, a); a.push(s.t); }
  for (const a of repoScans.values()) a.sort((x, y) => x - y);
  const typeFirstSeen = new Map<string, number[]>();
  for (const r of byKey.values()) {
    const a = typeFirstSeen.get(r.type) ?? []; typeFirstSeen.set(r.type, a); a.push(r.times[0]);
    const changes = repoChanges.get(r.repo) ?? [];
    let acc = new Float64Array(PRE);
    r.pre.push(acc);
    for (const e of r.events) {
      acc = Float64Array.from(acc);
      const lastChange = changes[upper(changes, e.t) - 1];
      if (lastChange !== undefined && e.t - lastChange <= FOLLOW_MS) acc[0]++;
      for (let c = 0; c < CHANGE_CLASSES.length; c++) if (e.classes & (1 << c)) acc[1 + c]++;
      acc[6] += e.attributes; acc[7] += e.severity; if (e.severity >= 3) acc[8]++;
      r.pre.push(acc);
    }
  }
  for (const a of typeFirstSeen.values()) a.sort((x, y) => x - y);
  return { resources: [...byKey.values()], repoChanges, repoScans, typeTimes, typeFirstSeen, first: drifts[0]?.t ?? null, drifts: drifts.length };
}

/** The resource's feature row at time t (records at or before t), or null when it had no drift yet. */
export function featuresAt(h: History, r: Resource, t: number, horizonMs: number): Float64Array | null {
  const k = upper(r.times, t);
  if (!k) return null;
  const p = r.pre[k];
  const last = r.times[k - 1];
  const firstT = r.times[0];
  const meanInterval = k > 1 ? (last - firstT) / (k - 1) : null;
  let periodicDue = 0;
  if (meanInterval && k > 2) {
    let v = 0;
    for (let i = 1; i < k; i++) v += ((r.times[i] - r.times[i - 1]) - meanInterval) ** 2;
    const cv = Math.sqrt(v / (k - 1)) / meanInterval;
    const next = last + meanInterval;
    if (cv < 0.5 && next > t - horizonMs / 2 && next <= t + horizonMs) periodicDue = 1;
  }
  const lastEvent = r.events[k - 1];
  const tt = h.typeTimes.get(r.type)!;
  const typeKnown = Math.max(1, upper(h.typeFirstSeen.get(r.type)!, t));
  const typeUpTo = upper(tt, t);
  const type30 = typeUpTo - upper(tt, t - 30 * DAY);
  const typeN = typeUpTo - upper(tt, t - horizonMs);
  const scans = h.repoScans.get(r.repo) ?? [];
  const lastScan = scans[upper(scans, t) - 1];
  const changes = h.repoChanges.get(r.repo) ?? [];
  const changesUpTo = upper(changes, t);
  const lastChange = changes[changesUpTo - 1];
  const row = new Float64Array(FEATURES.length);
  row[0] = Math.log1p(k);
  row[1] = k - upper(r.times, t - 7 * DAY);
  row[2] = k - upper(r.times, t - 30 * DAY);
  row[3] = decay(t - last, 14);
  row[4] = decay(t - firstT, 90);
  row[5] = meanInterval === null ? CAP_DAYS : days(meanInterval);
  row[6] = periodicDue;
  row[7] = lastEvent.resolved === null || lastEvent.resolved > t ? 1 : 0;
  row[8] = type30 / typeKnown;
  row[9] = Math.min(1, typeN / typeKnown);
  row[10] = decay(t - tt[typeUpTo - 1], 7);
  row[11] = lastScan === undefined ? 0 : decay(t - lastScan, 7);
  row[12] = changesUpTo - upper(changes, t - 30 * DAY);
  row[13] = lastChange === undefined ? 0 : decay(t - lastChange, 7);
  row[14] = p[0] / k;
  for (let c = 0; c < 4; c++) row[15 + c] = p[1 + c] / k;
  row[19] = p[6] / k;
  row[20] = p[7] / k;
  row[21] = p[8] / k;
  return row;
}

/** Whether the resource drifted in (t, t + horizon]. */
export const drifted = (r: Resource, t: number, horizonMs: number) => upper(r.times, t + horizonMs) > upper(r.times, t);

/** The most likely change class: the resource's own class counts, with its type's mix as a prior of weight 1. */
export function likelyClass(h: History, r: Resource, typeMix: Map<string, number[]>): ChangeClass {
  const p = r.pre[r.pre.length - 1];
  const prior = typeMix.get(r.type) ?? [];
  let best = 0; let bestScore = -1;
  for (let c = 0; c < CHANGE_CLASSES.length; c++) {
    const s = p[1 + c] + (prior[c] ?? 0);
    if (s > bestScore) { best = c; bestScore = s; }
  }
  return CHANGE_CLASSES[best];
}
/** Per resource type, the share of its drifts touching each change class. */
export function typeMixes(h: History): Map<string, number[]> {
  const acc = new Map<string, number[]>();
  for (const r of h.resources) {
    const a = acc.get(r.type) ?? new Array(CHANGE_CLASSES.length + 1).fill(0);
    acc.set(r.type, a);
    const p = r.pre[r.pre.length - 1];
    for (let c = 0; c < CHANGE_CLASSES.length; c++) a[c] += p[1 + c];
    a[CHANGE_CLASSES.length] += r.events.length;
  }
  return new Map([...acc].map(([t, a]) => [t, a.slice(0, -1).map((v) => v / Math.max(1, a[CHANGE_CLASSES.length]))]));
}
export type { Resource };
