// The comparison core shared by a scan (index.ts) and `drift-runner replay`: state instances of
// supported types grouped by type, read live through their reader in batches, compared, ignored
// and classified. Instances of types without a reader are counted in stats.unsupported.
import { AWS_READERS, type AwsContext } from './cloud/aws/index.ts';
import { compareAttributes, type CompareSpec } from './diff.ts';
import { timeoutError } from './errors.ts';
import type { IgnoreRules } from './ignore.ts';
import { classify } from './rules.ts';
import { standaloneView } from './standalone.ts';
import type { DetectedDrift, ScanStats, StateInstance } from './types.ts';

export interface CompareEntry { instance: StateInstance; region: string }

export async function compareLive(
  entries: CompareEntry[], aws: AwsContext, ignore: IgnoreRules, stats: Pick<ScanStats, 'unsupported' | 'ignoredDiffs'>,
  opts: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ drifts: DetectedDrift[]; compared: number }> {
  const byType = new Map<string, CompareEntry[]>();
  for (const entry of entries) {
    const { type } = entry.instance;
    if (!AWS_READERS[type]) {
      stats.unsupported[type] = (stats.unsupported[type] ?? 0) + 1;
      continue;
    }
    byType.set(type, [...(byType.get(type) ?? []), entry]);
  }
  const view = standaloneView(entries.map((e) => e.instance));
  const total = [...byType.values()].reduce((n, l) => n + l.length, 0);
  const drifts: DetectedDrift[] = [];
  let done = 0;
  opts.onProgress?.(0, total);
  for (const [type, list] of byType) {
    if (opts.signal?.aborted) throw timeoutError(opts.signal);
    const reader = AWS_READERS[type];
    const live = await reader.read(list, aws);
    list.forEach(({ instance }, i) => {
      const drift = compareOne(instance, view(instance), live[i], reader.spec, ignore, stats);
      if (drift) drifts.push(drift);
    });
    done += list.length;
    opts.onProgress?.(done, total);
  }
  return { drifts, compared: total };
}

function compareOne(
  instance: StateInstance, state: Record<string, unknown>, live: Record<string, unknown> | null, spec: CompareSpec,
  ignore: IgnoreRules, stats: Pick<ScanStats, 'ignoredDiffs'>,
): DetectedDrift | undefined {
  const base = { resourceType: instance.type, resourceAddress: instance.address };
  if (live === null) {
    const diff = [{ attribute: 'id', before: instance.attributes.id ?? null, after: null }];
    return { ...base, changeType: 'deleted', diff, ...classify({ resourceType: instance.type, changeType: 'deleted', diff }, instance.attributes) };
  }
  const { diff, ignored } = compareAttributes(instance.type, instance.address, state, live, spec, ignore);
  stats.ignoredDiffs += ignored;
  if (diff.length === 0) return undefined;
  return { ...base, changeType: 'changed', diff, ...classify({ resourceType: instance.type, changeType: 'changed', diff }, instance.attributes) };
}
