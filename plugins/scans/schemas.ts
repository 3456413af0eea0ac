// TypeBox schemas of the scan routes and of the result an executor reports.
import { Type, type Static } from 'typebox';
import { Id, Nullable, PageQuery as corePageQuery, Timestamp, pageFields, PagedList } from '../../core/schemas.ts';
import { DriftView, ReportedDrift, ReportedPlacement, TrendPoint } from '../drifts/schemas.ts';
import { SCAN_STATUSES, type Scan } from './store.ts';

/** Placement fields of a reported drift, for the plugins reporting scan results (runners). */
export { ReportedPlacement };

const PageQuery = corePageQuery();

export const ScanStatus = Type.Enum(SCAN_STATUSES);

/** Rows a scan's stats carry (one per resource type and reason): more are cut, the largest kept. */
export const NOT_COMPARED_MAX = 2000;
export const NotComparedRow = Type.Object({
  resourceType: Type.String({ minLength: 1, maxLength: 200 }),
  reason: Type.Union([Type.Literal('no_reader'), Type.Literal('unknown_region'), Type.Literal('access_denied'), Type.Literal('unsupported_shape')], {
    description: 'no_reader: the engine reads no such type; unknown_region: no region/scope could be resolved for the instance (never reported deleted); '
      + 'access_denied: the credentials may not read the type (the rest of the scan went on); unsupported_shape: the state holds no attributes, or not the id the reader looks the resource up by',
  }),
  count: Type.Integer({ minimum: 1, description: 'Managed instances of the type not compared for this reason' }),
});
/** Longest providerPlan.reason kept (a binary's error can run long; the rest is cut). */
export const PLAN_REASON_MAX = 1000;
export const ComparedByCounts = Type.Object({
  native: Type.Integer({ minimum: 0, description: "Instances compared by the engine's own readers" }),
  provider: Type.Integer({ minimum: 0, description: "Instances compared through the provider's refresh-only plan" }),
}, { additionalProperties: false });
export const ProviderPlan = Type.Object({
  ran: Type.Boolean({ description: 'Whether the refresh-only plan ran to the end' }),
  binary: Nullable(Type.String({ maxLength: 100, description: 'Binary and version (terraform 1.11.4); null when none was found or none was needed' })),
  targets: Type.Integer({ minimum: 0, description: 'Addresses the plan was targeted at (0 for a plan of everything: comparison provider)' }),
  compared: Type.Integer({ minimum: 0, description: 'Instances the plan compared' }),
  durationMs: Type.Integer({ minimum: 0 }),
  reason: Type.Optional(Type.String({ maxLength: PLAN_REASON_MAX, description: 'Why it did not run or failed (its instances are then listed in notCompared)' })),
}, { additionalProperties: false });
export const ScanStats = Type.Object({
  compared: Nullable(Type.Integer({ minimum: 0, description: 'Managed instances compared against the cloud' })),
  notCompared: Type.Array(NotComparedRow, {
    maxItems: NOT_COMPARED_MAX,
    description: 'What the scan did not compare, per resource type and reason, largest count first; [] when it compared everything (a tofu/terraform plan refreshes every instance)',
  }),
  comparedBy: Type.Optional(Nullable(ComparedByCounts)),
  providerPlan: Type.Optional(Nullable(ProviderPlan)),
  throttledCalls: Type.Optional(Type.Integer({ minimum: 0, description: 'Cloud API calls the provider answered as throttled (each halved its API-budget bucket and was retried); absent on scans recorded before it' })),
  waitedMs: Type.Optional(Type.Integer({ minimum: 0, description: "Milliseconds the scan's cloud API calls waited for the API budget or backed off after a throttle, summed over concurrent calls (it can exceed the scan's duration); absent on scans recorded before it" })),
});
export type ScanStats = Static<typeof ScanStats>;
/** An organization's cloud API rates (runner-agent/src/engine/budget/rates.ts checks the keys and bounds). */
export const ApiRates = Type.Record(Type.String({ maxLength: 120 }), Type.Number({ minimum: 0.1, maximum: 1000 }), {
  maxProperties: 50,
  description: 'Requests per second per `<cloud>:<service>` (`aws:ec2`, `azure:Microsoft.Network`, `google:compute`) or `<cloud>:*`; services not named keep the default rates (docs/scans.md)',
});
export const ApiRatesBody = Type.Object({ apiRates: ApiRates }, { additionalProperties: false });
export const ApiRatesView = Type.Object({ apiRates: ApiRates });
/** The stats a scan view shows: comparedBy and providerPlan null for scans recorded before hybrid scans. */
const ScanStatsView = Type.Object({
  ...ScanStats.properties,
  comparedBy: Type.Union([ComparedByCounts, Type.Null()], { description: 'Instances compared natively and through the provider plan; null for scans recorded before it' }),
  providerPlan: Type.Union([ProviderPlan, Type.Null()], { description: "The scan's refresh-only plan: whether it ran, with what, on how many addresses, or why not; null for scans recorded before it" }),
}, {
  description: 'A completed scan\'s coverage: how many instances it compared (and how), and, per type, what it did not and why; null before completion and for scans recorded before it was kept',
});
export const ScanView = Type.Object({
  _id: Type.String(),
  repositoryConfig: Type.String(),
  repositoryName: Type.String(),
  branch: Type.String(),
  status: ScanStatus,
  triggeredBy: Type.Union([Type.Literal('manual'), Type.Literal('schedule'), Type.Literal('event')], { description: 'event: a targeted re-check a cloud change event queued (trigger names it)' }),
  trigger: Nullable(Type.Object({
    eventId: Type.String({ description: 'The CloudTrail eventID that queued the re-check (the first of its debounce window)' }),
    resourceIds: Type.Array(Type.String()),
    addresses: Type.Array(Type.String(), { description: 'The only addresses read, compared and recorded' }),
  }, { description: 'A targeted re-check; null for a scan of the whole config' })),
  driftCount: Type.Integer(),
  newDrifts: Type.Integer(),
  resolvedDrifts: Type.Integer(),
  error: Nullable(Type.String()),
  stats: Nullable(ScanStatsView),
  createdAt: Timestamp,
  startedAt: Nullable(Timestamp),
  completedAt: Nullable(Timestamp),
});
export type ScanView = Static<typeof ScanView>;

export const scanView = (s: Scan): ScanView => ({
  _id: s._id, repositoryConfig: s.repositoryConfig, repositoryName: s.repositoryName, branch: s.branch, status: s.status,
  triggeredBy: s.triggeredBy, trigger: s.trigger ?? null, driftCount: s.driftCount, newDrifts: s.newDrifts, resolvedDrifts: s.resolvedDrifts, error: s.error,
  stats: s.stats ? { ...s.stats, comparedBy: s.stats.comparedBy ?? null, providerPlan: s.stats.providerPlan ?? null } : null, createdAt: s.createdAt.toISOString(), startedAt: s.startedAt?.toISOString() ?? null, completedAt: s.completedAt?.toISOString() ?? null,
});

export const ScanDetails = Type.Object({
  ...ScanView.properties,
  drifts: Type.Array(DriftView, { description: 'Drifts this scan detected first or found again, newest first, at most 1000' }),
});

export const ListQuery = Type.Object({
  ...pageFields(),
  status: Type.Optional(ScanStatus),
});
export { PageQuery };
export const ScanPage = PagedList(ScanView);
export const Dashboard = Type.Object({
  totalScans: Type.Integer(),
  totalDrifts: Type.Integer(),
  resolvedDrifts: Type.Integer(),
  activeRepositories: Type.Integer(),
  recentScans: Type.Array(ScanView),
  driftTrend: Type.Array(TrendPoint),
});
export const ScanIdParams = Type.Object({ scanId: Id });
export const ConfigIdParams = Type.Object({ repositoryConfigId: Id });
export const Message = Type.Object({ message: Type.String() });

/** One drift as an executor reports it (the drifts plugin's, which reconciles them). */
export { ReportedDrift };
/** Inventory rows a completed report may carry; a larger inventory is left out by the runner (the stored one is kept). */
export const INVENTORY_MAX = 20_000;
/** One managed instance of the states a scan read (runner-agent/src/engine/inventory.ts). */
export const InventoryItem = Type.Object({
  address: Type.String({ minLength: 1, maxLength: 1000 }),
  type: Type.String({ minLength: 1, maxLength: 200 }),
  resourceId: Nullable(Type.String({ maxLength: 2048 })),
  region: Nullable(Type.String({ maxLength: 64 })),
  account: Nullable(Type.String({ maxLength: 64 })),
});
export type InventoryItem = Static<typeof InventoryItem>;
export const Inventory = Type.Array(InventoryItem, {
  maxItems: INVENTORY_MAX,
  description: 'Every managed instance of the states read, with the id the engine reads it by; absent from runners older than it (the stored inventory is then kept)',
});

export const ScanResult = Type.Union([
  Type.Object({ status: Type.Literal('running') }),
  Type.Object({ status: Type.Literal('completed'), drifts: Type.Array(ReportedDrift), inventory: Type.Optional(Inventory), stats: Type.Optional(ScanStats) }),
  Type.Object({ status: Type.Literal('failed'), error: Type.String({ minLength: 1, maxLength: 2000 }) }),
]);
export type ScanResult = Static<typeof ScanResult>;
