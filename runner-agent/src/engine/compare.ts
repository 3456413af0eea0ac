// The comparison core shared by a scan (index.ts) and `drift-runner replay`: state instances of
// supported types grouped by type, read live through their reader in batches, compared, ignored
// and classified. Instances of types without a reader are counted in stats.unsupported.
// Whatever is not found where it was looked for is looked for again in the region its ARN
// names before it is reported deleted; sensitive attributes are compared by hash (sensitive.ts);
// tags compare as `tags_all` (values.ts withAllTags). Besides the ignore table and .driftignore,
// each instance's own `ignore_changes` (lifecycle.ts) and the known provider noise (noise.ts)
// are dropped before the severity rules see the diff.
import { AWS_READERS, SEVERITY_RULES } from './catalogue.ts';
import type { AwsContext } from './cloud/aws/index.ts';
import { compareAttributes, type CompareSpec } from './diff.ts';
import { isPermissionDenied, timeoutError } from './errors.ts';
import { readerIdOf } from './inventory.ts';
import { countNotCompared } from './not-compared.ts';
import type { IgnoreRules } from './ignore.ts';
import { withInstanceIgnores, type IgnoreChanges } from './lifecycle.ts';
import { noiseContext, noiseFor } from './noise.ts';
import { arnRegion } from './region.ts';
import { classify } from './rules.ts';
import { MANAGED_POLICIES, withoutManaged, type ManagedPolicies } from './role-policies.ts';
import { hashSensitive, redactDiff } from './sensitive.ts';
import { standaloneView } from './standalone.ts';
import type { DeclaredIn, DetectedDrift, LiveAttributes, ScanStats, StateInstance } from './types.ts';
import { withAllTags } from './values.ts';
import { placementOf } from './where.ts';

/** `regionSource`: where the region came from (region.ts); an assumed one is noted on a deletion. */
/** `account`: the Azure subscription or Google project (AWS takes it from the ARN). */
/** `ignoreChanges`: the declaring block's lifecycle ignore_changes; `noise`: provider noise paths that apply (noise.ts). */
export interface CompareEntry {
  instance: StateInstance; region: string; regionSource?: string; declaredIn?: DeclaredIn | null; account?: string | null;
  ignoreChanges?: IgnoreChanges; noise?: string[];
}
const ASSUMED = new Set(['credentials', 'peers']);

export async function compareLive(
  entries: CompareEntry[], aws: AwsContext, ignore: IgnoreRules,
  stats: Pick<ScanStats, 'unsupported' | 'ignoredDiffs' | 'foundInArnRegion' | 'deletedInAssumedRegion' | 'accessDenied' | 'unsupportedShape'>,
  opts: {
    signal?: AbortSignal; onProgress?: (done: number, total: number) => void;
    /** Every instance of the states, when `entries` leaves some out (unknown region): standalone resources still count. */
    allInstances?: StateInstance[];
  } = {},
): Promise<{ drifts: DetectedDrift[]; compared: number }> {
  const byType = new Map<string, CompareEntry[]>();
  for (const entry of entries) {
    const { type } = entry.instance;
    if (!AWS_READERS[type]) {
      stats.unsupported[type] = (stats.unsupported[type] ?? 0) + 1;
      continue;
    }
    // Without the id its reader looks it up by, an instance would read as deleted: not compared.
    if (readerIdOf(type, entry.instance.attributes) === null) { countNotCompared(stats, 'unsupportedShape', type); continue; }
    byType.set(type, [...(byType.get(type) ?? []), entry]);
  }
  const view = standaloneView(opts.allInstances ?? entries.map((e) => e.instance));
  const noise = noiseContext(opts.allInstances ?? entries.map((e) => e.instance));
  const total = [...byType.values()].reduce((n, l) => n + l.length, 0);
  const drifts: DetectedDrift[] = [];
  let done = 0;
  let denied: unknown;
  let refused = 0;
  opts.onProgress?.(0, total);
  for (const [type, list] of byType) {
    if (opts.signal?.aborted) throw timeoutError(opts.signal);
    const reader = AWS_READERS[type];
    let live: (LiveAttributes | null)[];
    try {
      live = await reader.read(list, aws);
      await recheckInArnRegion(list, live, aws, stats);
    } catch (e) {
      // A type the credentials may not read is named in the stats; the other types are still compared.
      if (!isPermissionDenied(e)) throw e;
      denied ??= e;
      countNotCompared(stats, 'accessDenied', type, list.length);
      refused += list.length;
      done += list.length;
      continue;
    }
    list.forEach((entry, i) => {
      const { instance, region, regionSource } = entry;
      const drift = compareOne({ ...entry, noise: noiseFor(instance, noise) }, withAllTags(view(instance)), live[i], reader.spec, ignore, stats);
      if (drift) drifts.push(drift);
      if (drift?.changeType === 'deleted' && regionSource && ASSUMED.has(regionSource)) {
        const names = (stats.deletedInAssumedRegion ??= []);
        if (names.length < LISTED) names.push(`${instance.address} (${region}, from ${regionSource})`);
      }
    });
    done += list.length;
    opts.onProgress?.(done, total);
  }
  // Nothing readable at all: the credentials' problem, reported as the scan's failure.
  if (denied && refused >= total) throw denied;
  return { drifts, compared: total - refused };
}

const LISTED = 100;

/** Instances not found in the region asked, read again in the region their ARN names. */
async function recheckInArnRegion(
  list: CompareEntry[], live: (LiveAttributes | null)[], aws: AwsContext, stats: Pick<ScanStats, 'foundInArnRegion'>,
): Promise<void> {
  const again = list.map((entry, i) => ({ entry, i, region: arnRegion(entry.instance.attributes) }))
    .filter((x) => live[x.i] === null && x.region && x.region !== x.entry.region);
  if (again.length === 0) return;
  const found = await AWS_READERS[list[0].instance.type].read(again.map((x) => ({ instance: x.entry.instance, region: x.region! })), aws);
  again.forEach((x, k) => {
    if (found[k] === null) return;
    live[x.i] = found[k];
    list[x.i] = { ...x.entry, region: x.region! }; // the drift's location is where it was found
    const names = (stats.foundInArnRegion ??= []);
    if (names.length < LISTED) names.push(x.entry.instance.address);
  });
}

export function compareOne(
  { instance, region, declaredIn, account, ignoreChanges, noise }: CompareEntry, state: Record<string, unknown>, live: Record<string, unknown> | null, spec: CompareSpec,
  tableAndFile: IgnoreRules, stats: Pick<ScanStats, 'ignoredDiffs'>,
): DetectedDrift | undefined {
  const ignore = withInstanceIgnores(withInstanceIgnores(tableAndFile, ignoreChanges), noise);
  const base = { resourceType: instance.type, resourceAddress: instance.address, comparedBy: 'native' as const, ...placementOf(instance, region, declaredIn), ...(account ? { account } : {}) };
  const own = instance.sensitivePaths ?? [];
  const schema = (spec.sensitive ?? []).map((p) => p.split('.')).filter((p) => !own.some((q) => q.join('.') === p.join('.')));
  const sensitive = schema.length ? [...own, ...schema] : own;
  if (live === null) {
    const diff = redactDiff([{ attribute: 'id', before: instance.attributes.id ?? null, after: null }], sensitive);
    return { ...base, changeType: 'deleted', diff, ...classify({ resourceType: instance.type, changeType: 'deleted', diff }, instance.attributes, SEVERITY_RULES) };
  }
  // The live side loses what the state view left out: policies a role's own resources manage.
  const managed = (state as { [MANAGED_POLICIES]?: ManagedPolicies })[MANAGED_POLICIES];
  const seen = managed ? withoutManaged(live, managed) : live;
  const found = compareAttributes(instance.type, instance.address, hashSensitive(state, sensitive, spec), hashSensitive(seen, sensitive, spec), spec, ignore);
  stats.ignoredDiffs += found.ignored;
  if (found.diff.length === 0) return undefined;
  const diff = redactDiff(found.diff, sensitive);
  return { ...base, changeType: 'changed', diff, ...classify({ resourceType: instance.type, changeType: 'changed', diff }, instance.attributes, SEVERITY_RULES) };
}
