// The store filter and sort of the list, /query, export and widget reads: always carrying status
// and severityRank so one index family (store.ts) serves every mix of filters.
import type { Filter } from 'mongodb';
import { DRIFT_STATUSES, SEVERITIES, SEVERITY_RANK, type Drift, type DriftStatus, type Severity, type SortField } from './types.ts';

/**
 * resourceId, location and ruleId: each alone, or with a repository (a filter or a CLI token's
 * repositories), under every sort; two or three of them together under the default sort
 * (severity and status sorts are served too: they are equality fields). Not indexed as such:
 * one of them with resourceType, or several with an address or type sort.
 */
export const PLACE_FILTERS = ['resourceId', 'location', 'ruleId'] as const;

/** Filters of the list, /query, export and widgets; ids already restricted to what the caller may see. */
export interface DriftFilter {
  status?: DriftStatus[];
  severity?: Severity[];
  resourceType?: string;
  /** Config ids: one (a filter), several (a CLI token's repositories), or undefined (all). */
  repositoryConfig?: readonly string[];
  q?: string;
  resourceId?: string;
  location?: string;
  ruleId?: string;
  /** Substring of the cause's actor (identity ARN), case-insensitive. */
  actor?: string;
  /** Include drifts suppressed as learned noise (left out by default). */
  suppressed?: boolean;
}

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function driftFilter(orgId: string, f: DriftFilter): Filter<Drift> {
  const filter: Filter<Drift> = { orgId };
  if (f.repositoryConfig) filter.repositoryConfig = f.repositoryConfig.length === 1 ? f.repositoryConfig[0] : { $in: [...f.repositoryConfig] };
  if (f.resourceType) filter.resourceType = f.resourceType;
  for (const k of PLACE_FILTERS) if (f[k]) filter[k] = f[k];
  // Always present, so the same index family serves every combination (see above).
  filter.status = { $in: [...(f.status?.length ? f.status : DRIFT_STATUSES)] };
  filter.severityRank = { $in: (f.severity?.length ? f.severity : SEVERITIES).map((s) => SEVERITY_RANK[s]) };
  if (f.q) {
    const rx = { $regex: escapeRegex(f.q), $options: 'i' };
    filter.$or = [{ resourceAddress: rx }, { resourceType: rx }];
  }
  // Both are conditions over the rows an index family above selects, never equality keys: a
  // suppressed drift is rare, and an actor is a substring.
  if (f.actor) filter['cause.actor'] = { $regex: escapeRegex(f.actor), $options: 'i' };
  if (!f.suppressed) filter.suppressed = { $ne: true };
  return filter;
}

export function driftSort(sort: string | undefined): Record<string, 1 | -1> {
  const desc = Boolean(sort?.startsWith('-'));
  const field = (sort?.replace(/^-/, '') || 'detectedAt') as SortField;
  const dir = desc ? -1 : 1;
  if (!sort) return { detectedAt: -1, _id: -1 };
  switch (field) {
    case 'detectedAt': return { detectedAt: dir, _id: dir };
    case 'severity': return { severityRank: dir, detectedAt: -1, _id: -1 };
    case 'status': return { status: dir, detectedAt: -1, _id: -1 };
    default: return { [field]: dir, _id: dir === 1 ? -1 : 1 } as Record<string, 1 | -1>;
  }
}

