// What a scan did not compare, per resource type and reason, so a user sees the gap instead of
// assuming it is covered: the scan record shows it (plugins/scans: `stats.notCompared`).
import type { NotCompared, NotComparedReason, ScanStats } from './types.ts';

const SOURCES: [NotComparedReason, (s: ScanStats) => Record<string, number> | undefined][] = [
  ['no_reader', (s) => s.unsupported],
  ['unknown_region', (s) => s.regionUnknown],
  ['access_denied', (s) => s.accessDenied],
  ['unsupported_shape', (s) => s.unsupportedShape],
];

/** The rows of `stats`, largest count first (then by type and reason, for a stable order). */
export function notComparedOf(stats: ScanStats): NotCompared[] {
  const rows: NotCompared[] = [];
  for (const [reason, of] of SOURCES) {
    for (const [resourceType, count] of Object.entries(of(stats) ?? {})) if (count > 0) rows.push({ resourceType, reason, count });
  }
  return rows.sort((a, b) => b.count - a.count || a.resourceType.localeCompare(b.resourceType) || a.reason.localeCompare(b.reason));
}

/** Counts one instance of `type` under `key` of `stats`. */
export function countNotCompared(stats: Pick<ScanStats, 'accessDenied' | 'unsupportedShape'>, key: 'accessDenied' | 'unsupportedShape', type: string, n = 1): void {
  const counts = (stats[key] ??= {});
  counts[type] = (counts[type] ?? 0) + n;
}
