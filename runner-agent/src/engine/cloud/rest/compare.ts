// The comparison loop for the REST clouds (Azure, Google), on the same core as AWS's (compare.ts
// compareOne: ignore table, sensitive hashing, severity rules): instances grouped by type, read
// live through their reader in batches, compared. What is not found in the scope it was read in
// is read again in the scope its own id names before it is reported deleted.
import { compareOne } from '../../compare.ts';
import type { IgnoreChanges } from '../../lifecycle.ts';
import { timeoutError } from '../../errors.ts';
import type { IgnoreRules } from '../../ignore.ts';
import type { DeclaredIn, DetectedDrift, LiveAttributes, ScanStats, StateInstance } from '../../types.ts';
import { isObject } from '../../values.ts';
import type { RestApi } from './api.ts';
import type { FakeWorld, RestCloud, RestReader, Scope } from './reader.ts';

export interface RestEntry { instance: StateInstance; scope: Scope; declaredIn?: DeclaredIn | null; ignoreChanges?: IgnoreChanges }

const LISTED = 100;
type Stats = Pick<ScanStats, 'unsupported' | 'ignoredDiffs' | 'foundInIdScope'>;

/**
 * The state side as compared: Google provider 5+ keeps `labels` (the configuration's) apart from
 * `effective_labels` (every label on the resource, provider defaults included), and the API
 * answers the latter: compared as `labels`.
 */
export function stateView(attributes: Record<string, unknown>): Record<string, unknown> {
  const all = attributes.effective_labels;
  if (!isObject(all)) return attributes;
  const own = isObject(attributes.labels) ? attributes.labels : {};
  if (!Object.keys(own).every((k) => k in all)) return attributes;
  const { effective_labels: _e, terraform_labels: _t, ...rest } = attributes;
  return { ...rest, labels: all };
}

export async function compareRest(
  entries: RestEntry[], cloud: RestCloud, api: RestApi, ignore: IgnoreRules, stats: Stats,
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ drifts: DetectedDrift[]; compared: number }> {
  const byType = new Map<string, RestEntry[]>();
  for (const entry of entries) {
    const { type } = entry.instance;
    if (!cloud.readers[type]) { stats.unsupported[type] = (stats.unsupported[type] ?? 0) + 1; continue; }
    byType.set(type, [...(byType.get(type) ?? []), entry]);
  }
  const total = [...byType.values()].reduce((n, l) => n + l.length, 0);
  const world = stateOf(entries);
  const drifts: DetectedDrift[] = [];
  let done = 0;
  opts.onProgress?.(0, total);
  for (const [type, list] of byType) {
    if (opts.signal?.aborted) throw timeoutError(opts.signal);
    const reader = cloud.readers[type];
    const live = await reader.read(list, api, world);
    await recheckInIdScope(list, live, cloud, reader, api, stats, world);
    list.forEach((entry, i) => {
      const { instance, scope, declaredIn, ignoreChanges } = entry;
      const drift = compareOne({ instance, region: scope.location ?? '', declaredIn, account: scope.account || null, ignoreChanges }, stateView(instance.attributes), live[i], reader.spec, ignore, stats);
      if (drift) drifts.push(drift);
    });
    done += list.length;
    opts.onProgress?.(done, total);
  }
  return { drifts, compared: total };
}

/** The scan's instances by type, as readers see the rest of the state. */
function stateOf(entries: RestEntry[]): FakeWorld {
  const byType = new Map<string, StateInstance[]>();
  for (const { instance } of entries) {
    const list = byType.get(instance.type);
    if (list) list.push(instance); else byType.set(instance.type, [instance]);
  }
  return { of: (type) => byType.get(type) ?? [] };
}

async function recheckInIdScope(list: RestEntry[], live: (LiveAttributes | null)[], cloud: RestCloud, reader: RestReader, api: RestApi, stats: Stats, world: FakeWorld): Promise<void> {
  const same = (a: Scope, b: Scope) => a.account === b.account && (a.location ?? '') === (b.location ?? '');
  const again = list.map((entry, i) => ({ entry, i, scope: cloud.idScope(entry.instance) }))
    .filter((x): x is { entry: RestEntry; i: number; scope: Scope } => live[x.i] === null && !!x.scope && !same(x.scope, x.entry.scope));
  if (again.length === 0) return;
  const found = await reader.read(again.map((x) => ({ instance: x.entry.instance, scope: x.scope })), api, world);
  again.forEach((x, k) => {
    if (found[k] === null) return;
    live[x.i] = found[k];
    list[x.i] = { ...x.entry, scope: x.scope };
    const names = (stats.foundInIdScope ??= []);
    if (names.length < LISTED) names.push(x.entry.instance.address);
  });
}
