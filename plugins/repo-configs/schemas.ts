// TypeBox schemas of the repository config routes, with their Static<> types beside them.
import { Type, type Static } from 'typebox';
import { Id, MAX_RUNNER_LABELS, Nullable, RunnerLabel, Timestamp } from '../../core/schemas.ts';
import { COMPARISONS, PROVIDERS } from './store.ts';

export const Provider = Type.Enum(PROVIDERS);
/** owner/repo as the source host names it. */
export const RepositoryName = Type.String({ pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$', maxLength: 200, description: 'owner/repo' });
const Branch = Type.String({ minLength: 1, maxLength: 255 });
const IacPaths = Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 50 });
const Cron = Type.String({ maxLength: 100, description: 'Five-field cron expression (minute hour day-of-month month day-of-week), evaluated in UTC' });
const RepositoryUrl = Type.String({ minLength: 1, maxLength: 1000, description: 'Where the IaC sources are: a git URL (https://, ssh://, git://, file://, git@host:owner/repo) cloned at the branch, or an absolute path on the machine that runs the scan' });
const RunnerLabels = Type.Array(RunnerLabel, { maxItems: MAX_RUNNER_LABELS, uniqueItems: true, description: 'Non-empty: only a self-hosted runner carrying every one of these labels runs the scans; empty: the built-in executor runs them' });
const StatePath = Type.String({ minLength: 1, maxLength: 1000, description: 'Explicit Terraform state location: a path in the repository, relative to each iacPath (no absolute path, no `..` leaving the repository), or s3://bucket/key (cloud_a), gs://bucket/object (cloud_c), azblob://account/container/blob (cloud_b); otherwise the backend block decides' });

export const Comparison = Type.Enum(COMPARISONS, {
  description: 'How scans compare the state with the cloud. auto (default): native readers for the types they read, one targeted '
    + '`terraform plan -refresh-only` (tofu or terraform) for the rest; native: native readers only, never a plan (the rest is listed as not compared); '
    + 'provider: every instance through the plan. Plans run on self-hosted runners with tofu/terraform, and on the built-in executor only when '
    + 'the operator set EXECUTOR_PROVIDER_PLANS=true; elsewhere a scan compares natively and its stats.providerPlan says why',
});

export const CreateRepoConfig = Type.Object({
  repositoryName: RepositoryName,
  branch: Branch,
  iacPaths: Type.Optional(IacPaths),
  provider: Provider,
  scheduleCron: Type.Optional(Nullable(Cron)),
  workspaceId: Type.Optional(Id),
  projectId: Type.Optional(Nullable(Id)),
  repositoryUrl: Type.Optional(Nullable(RepositoryUrl)),
  runnerLabels: Type.Optional(RunnerLabels),
  statePath: Type.Optional(Nullable(StatePath)),
  comparison: Type.Optional(Comparison),
}, { additionalProperties: false });
export type CreateRepoConfig = Static<typeof CreateRepoConfig>;

/** Every field of a create, each optional: a PUT changes what it names. */
export const UpdateRepoConfig = Type.Partial(CreateRepoConfig, { additionalProperties: false });
export type UpdateRepoConfig = Static<typeof UpdateRepoConfig>;

export const RepoConfigView = Type.Object({
  _id: Type.String(),
  repositoryName: Type.String(),
  branch: Type.String(),
  iacPaths: Type.Array(Type.String()),
  provider: Provider,
  scheduleCron: Nullable(Type.String()),
  workspaceId: Type.String(),
  projectId: Nullable(Type.String()),
  repositoryUrl: Nullable(Type.String()),
  runnerLabels: Type.Array(Type.String()),
  statePath: Nullable(Type.String()),
  comparison: Comparison,
  status: Type.Literal('active'),
  lastScanAt: Nullable(Timestamp),
  lastScanStatus: Nullable(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type RepoConfigView = Static<typeof RepoConfigView>;

/** The edit view: the config plus what only writers see (its schedule's next run). */
export const RepoConfigEditView = Type.Object({
  ...RepoConfigView.properties,
  nextScheduledAt: Nullable(Timestamp),
});

export const RepoConfigStats = Type.Object({
  totalScans: Type.Integer(),
  totalDrifts: Type.Integer(),
  resolvedDrifts: Type.Integer(),
  openDrifts: Type.Integer(),
  lastScanAt: Nullable(Timestamp),
  lastScanStatus: Nullable(Type.String()),
});
export const Deleted = Type.Object({ message: Type.String() });
