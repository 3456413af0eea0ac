// The drift's domain types and constants, shared by the drifts plugin's store, schemas and
// service and by the plugins that read drifts (scans, cloud-events, drift-watch, drift-widgets):
// other plugins import them from here, never from store.ts.
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const SEVERITY_RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1 };
export const DRIFT_STATUSES = ['detected', 'acknowledged', 'resolved', 'ignored'] as const;
export type DriftStatus = (typeof DRIFT_STATUSES)[number];
export const CHANGE_TYPES = ['changed', 'added', 'removed'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export const OPEN = 'open';

/** `source`: 'rules' when written from the severity rule table, else the AI provider that wrote it (absent on older records). */
export interface AiAnalysis { summary: string; riskLevel: string; recommendation: string; source?: 'rules' | 'provider_a' | 'provider_b' }
export const PROVIDERS = ['cloud_a', 'cloud_b', 'cloud_c'] as const;
/**
 * Where the resource lives and is declared, and the rule that rated it, as the executor
 * reported them (runner-agent/src/engine where.ts). Each is null when unknown, and absent on
 * records stored before they existed (the view gives null).
 */
export interface DriftPlacement {
  ruleId: string | null;
  resourceId: string | null;
  provider: (typeof PROVIDERS)[number] | null;
  location: string | null;
  account: string | null;
  /** '' for the root module. */
  module: string | null;
  declaredIn: { file: string; line: number } | null;
  /** The engine's own reader, or the provider's refresh-only plan (never null: absent reads 'native'). */
  comparedBy: 'native' | 'provider';
}
export interface Drift extends Partial<DriftPlacement> {
  _id: string;
  orgId: string;
  repositoryConfig: string;
  repositoryName: string;
  /** The scan that first detected it. */
  scan: string;
  /** The latest scan that found it. */
  lastScan: string;
  resourceType: string;
  resourceAddress: string;
  severity: Severity;
  severityRank: number;
  status: DriftStatus;
  changeType: ChangeType;
  diff: Record<string, unknown>;
  aiAnalysis: AiAnalysis | null;
  openKey: string;
  detectedAt: Date;
  /** UTC day (YYYY-MM-DD) of detectedAt and of resolvedAt: the trends group on these (no date operators on the embedded database). */
  day: string;
  lastSeenAt: Date;
  resolvedAt: Date | null;
  resolvedDay: string | null;
  resolvedBy: 'scan' | 'user' | null;
  statusChangedAt: Date | null;
  feedback: { rating: number; comment: string | null; userId: string; at: Date } | null;
  updatedAt: Date;
  /** The commit the latest scan that found it read. */
  commit?: string | null;
  /**
   * The accepted baseline (Drift Watch accept): who accepted the drift, when, and the diff they
   * accepted. While a scan reports the same diff the drift is not reported again; a different
   * diff clears this and reports the drift again (reconcile.ts). Absent: never accepted.
   */
  accepted?: DriftAcceptance | null;
  /** The latest scan that reported this drift again after its accepted diff changed. */
  redetectedScan?: string | null;
  /** Absent on records stored before cause attribution and noise suppression (read as null, false). */
  cause?: DriftCause | null;
  causeReason?: CauseReason | null;
  suppressed?: boolean;
  suppressedReason?: string | null;
}
export interface DriftAcceptance { by: string; at: Date; diff: Record<string, unknown> }
/** The most likely change event behind a drift (plugins/cloud-events attributes it when the drift is recorded). */
export interface DriftCause {
  eventId: string; eventName: string; eventTime: Date; actor: string | null; actorType: string | null;
  sourceIPAddress: string | null; userAgent: string | null;
}
export const CAUSE_REASONS = ['no_events_received', 'no_matching_event'] as const;
export type CauseReason = (typeof CAUSE_REASONS)[number];
/** What a scan's result adds to a drift besides its diff: its cause and whether learned noise suppresses it. */
export interface DriftAnnotation {
  cause: DriftCause | null;
  causeReason: CauseReason | null;
  suppressed: boolean;
  /** The noise rule(s) that suppress it: `noise:<resourceType>:<attribute>`. */
  suppressedReason: string | null;
}

/** A drift as the predictions plugin's learn run reads it (store.eachSince). */
export type DriftHistoryRow = Pick<Drift, '_id' | 'repositoryConfig' | 'resourceType' | 'resourceAddress' | 'severityRank' | 'detectedAt' | 'resolvedAt' | 'diff'> & { commit?: string | null };
export const SORT_FIELDS = ['detectedAt', 'severity', 'status', 'resourceType', 'resourceAddress'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

