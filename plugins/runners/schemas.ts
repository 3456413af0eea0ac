import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { Id, MAX_RUNNER_LABELS, Nullable, RunnerLabel as Label, Timestamp } from '../../core/schemas.ts';
import { Inventory, ReportedPlacement } from '../scans/schemas.ts';
import { Comparison } from '../repo-configs/schemas.ts';

export const RunnerParams = Type.Object({ runnerId: Id });
export const CreateRunner = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  labels: Type.Array(Label, { maxItems: MAX_RUNNER_LABELS, uniqueItems: true, default: [] }),
});
export type CreateRunner = Static<typeof CreateRunner>;
export const UpdateRunner = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  labels: Type.Optional(Type.Array(Label, { maxItems: MAX_RUNNER_LABELS, uniqueItems: true })),
}, { minProperties: 1 });
export type UpdateRunner = Static<typeof UpdateRunner>;

export const SystemInfo = Type.Object({
  cpu: Type.Optional(Type.Object({ cores: Type.Optional(Type.Integer({ minimum: 0 })), model: Type.Optional(Type.String({ maxLength: 200 })), loadAverage: Type.Optional(Type.Array(Type.Number(), { maxItems: 3 })) })),
  memory: Type.Optional(Type.Object({ totalBytes: Type.Optional(Type.Number({ minimum: 0 })), freeBytes: Type.Optional(Type.Number({ minimum: 0 })) })),
  disk: Type.Optional(Type.Object({ totalBytes: Type.Optional(Type.Number({ minimum: 0 })), freeBytes: Type.Optional(Type.Number({ minimum: 0 })) })),
  os: Type.Optional(Type.String({ maxLength: 200 })),
  hostname: Type.Optional(Type.String({ maxLength: 255 })),
}, { additionalProperties: false });
export type SystemInfo = Static<typeof SystemInfo>;
/** Largest systemInfo accepted, as JSON text: far above what any agent reports (about 300 bytes). */
export const SYSTEM_INFO_MAX_BYTES = 8192;
/**
 * systemInfo is informational: a runner's liveness must not depend on its shape. Any JSON
 * object (up to a size bound) is accepted; the known fields of a valid shape are kept
 * (systemInfoOf), the rest is ignored. Only `status` decides the heartbeat.
 */
/** The tofu/terraform binary a runner runs provider refresh-only plans with (runner-agent planCapability). */
export const ProviderPlans = Type.Object({
  binary: Type.Union([Type.Literal('terraform'), Type.Literal('tofu')]),
  version: Type.String({ minLength: 1, maxLength: 50, pattern: '^[0-9A-Za-z][0-9A-Za-z.+_-]*$', description: 'As `version -json` answers it (1.11.4)' }),
}, { additionalProperties: false });
export type ProviderPlans = Static<typeof ProviderPlans>;
export const Heartbeat = Type.Object({
  status: Type.Union([Type.Literal('online'), Type.Literal('busy')]),
  version: Type.Optional(Type.String({ maxLength: 50 })),
  providerPlans: Type.Optional(Type.Union([ProviderPlans, Type.Null()], {
    description: 'The binary the runner runs provider refresh-only plans with (hybrid scans), null when it has none; agents older than it send nothing (shown as null)',
  })),
  systemInfo: Type.Optional(Type.Object({}, {
    additionalProperties: true, maxProperties: 100,
    description: `Any JSON object up to ${SYSTEM_INFO_MAX_BYTES} bytes; cpu, memory, disk, os and hostname of the documented shape are kept, anything else is ignored`,
  })),
});
export type Heartbeat = Static<typeof Heartbeat>;

/** The known fields of a reported systemInfo that have the documented shape; each other field is dropped. */
export function systemInfoOf(reported: Record<string, unknown>): SystemInfo {
  const props = SystemInfo.properties as Record<string, TSchema>;
  const kept: Record<string, unknown> = {};
  for (const [k, schema] of Object.entries(props)) {
    if (reported[k] === undefined) continue;
    // Clean drops the sub-fields the shape does not name (cpu.vendor...), then the rest must fit it.
    const value = Value.Clean(schema, Value.Clone(reported[k]));
    if (Value.Check(schema, value)) kept[k] = value;
  }
  return kept as SystemInfo;
}

export const RunnerView = Type.Object({
  _id: Type.String(), name: Type.String(), labels: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('online'), Type.Literal('busy'), Type.Literal('offline')]),
  version: Nullable(Type.String()), lastHeartbeat: Nullable(Timestamp), jobsCompleted: Type.Integer(),
  systemInfo: Nullable(SystemInfo), tokenPrefix: Type.String(), createdAt: Timestamp,
  providerPlans: Type.Union([ProviderPlans, Type.Null()], {
    description: "What the runner's latest heartbeat said it runs provider plans with (tofu or terraform and its version); null when it has none or never said",
  }),
});
export const CreatedRunner = Type.Intersect([RunnerView, Type.Object({ token: Type.String() })]);
export const NewToken = Type.Object({ _id: Type.String(), token: Type.String(), tokenPrefix: Type.String() });
export const HeartbeatAck = Type.Object({
  status: Type.String(), lastHeartbeat: Timestamp,
  cancelJobs: Type.Optional(Type.Array(Type.String(), {
    description: 'On a busy heartbeat: jobs this runner holds that it must stop (the scan was cancelled, ended, or handed to another runner); it reports each as cancelled',
  })),
});

// ---- agent job routes ------------------------------------------------------------------------

const Severity = Type.Union([Type.Literal('critical'), Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')]);
/** One drift as the detection engine reports it (runner-agent/src/engine/types.ts DetectedDrift). */
export const AgentDrift = Type.Object({
  resourceType: Type.String({ minLength: 1, maxLength: 200 }),
  resourceAddress: Type.String({ minLength: 1, maxLength: 1000 }),
  changeType: Type.Union([Type.Literal('changed'), Type.Literal('deleted')]),
  severity: Severity,
  diff: Type.Array(Type.Object({ attribute: Type.String({ maxLength: 1000 }), before: Type.Unknown(), after: Type.Unknown() })),
  // ruleId, resourceId, provider, location, account, module, declaredIn, commit: each optional,
  // so a runner older than these fields still reports (they are stored as null).
  ...ReportedPlacement,
});
export const JobStatusBody = Type.Object({
  jobId: Type.String({ pattern: '^[a-f0-9]{24}$' }),
  status: Type.Union([Type.Literal('running'), Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')], {
    description: 'cancelled: the runner stopped the job because a heartbeat (cancelJobs) or a report answer told it to',
  }),
  result: Type.Optional(Type.Object({
    drifts: Type.Optional(Type.Array(AgentDrift, { description: 'Required with status completed; [] when nothing drifted' })),
    resourcesScanned: Type.Optional(Type.Integer({ minimum: 0 })),
    stats: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    inventory: Type.Optional(Inventory),
  })),
  error: Type.Optional(Type.String({ maxLength: 4000 })),
});
export type JobStatusBody = Static<typeof JobStatusBody>;
export const JobStatusAck = Type.Object({ jobId: Type.String(), status: Type.String({ description: "The scan's status after the report" }) });

export const JobSource = Type.Union([
  Type.Object({ kind: Type.Literal('git'), url: Type.String(), branch: Type.String() }),
  Type.Object({ kind: Type.Literal('path'), path: Type.String() }),
]);
export const Job = Type.Object({
  _id: Type.String({ description: 'The scan id; report on it with POST /jobs/status' }),
  type: Type.Literal('scan'),
  repositoryConfig: Type.String(),
  repositoryName: Type.String(),
  branch: Type.String(),
  scan: Type.Object({
    source: JobSource,
    iacPaths: Type.Array(Type.String()),
    provider: Type.String(),
    credentials: Nullable(Type.Record(Type.String(), Type.Unknown(), { description: "Decrypted cloud credentials of the project, else of the organization" })),
    endpoint: Type.Optional(Type.String()),
    statePath: Type.Optional(Type.String()),
    addresses: Type.Optional(Type.Array(Type.String(), { description: 'A targeted re-check (triggeredBy event): read and compare only these addresses' })),
    comparison: Comparison,
    apiRates: Type.Optional(Type.Record(Type.String(), Type.Number(), { description: "The organization's cloud API rates (requests per second per `<cloud>:<service>`); the runner's budget uses them instead of its defaults" })),
  }),
});
export const JobClaim = Type.Object({ job: Nullable(Job) });

// ---- setup -----------------------------------------------------------------------------------

export const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });
export const RuntimeQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 200 })),
  platform: Type.Optional(Type.String({ pattern: '^[a-z0-9]+-[a-z0-9]+$', maxLength: 40, description: 'linux-x64 (default) or linux-arm64' })),
});
export const SetupInfo = Type.Object({
  runnerId: Type.String(), name: Type.String(), labels: Type.Array(Type.String()),
  apiUrl: Type.String(),
  token: Nullable(Type.String({ description: 'null for runners created before setup data was kept: regenerate the token' })),
  setupUrl: Nullable(Type.String()), installCommand: Nullable(Type.String()), packageUrl: Nullable(Type.String()),
});
