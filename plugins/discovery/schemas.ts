// TypeBox schemas of the Cloud Discovery routes (SPEC "Cloud Discovery").
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, pageFields } from '../../core/schemas.ts';
import { IAC_STATUSES, SCAN_STATUSES, type DiscoveredResource, type DiscoveryScan } from './store.ts';

const AccountId = Type.String({
  minLength: 1, maxLength: 64, pattern: '^(org|org:cloud_[bc]|[a-f0-9]{24})$',
  description: "'org' (the organization's cloud_a credentials), 'org:cloud_b' or 'org:cloud_c' (its Azure or Google Cloud credentials), or a project id (that project's credentials, whatever their provider)",
});
/** An AWS region, an Azure location (westeurope) or a Google region (us-central1). */
const Region = Type.String({ pattern: '^[a-z][a-z0-9-]{1,39}$', maxLength: 40 });

export const StartScan = Type.Object({
  cloudAccountId: Type.Optional(AccountId),
  regions: Type.Optional(Type.Array(Region, { maxItems: 80, description: 'Default: every region the account has enabled (cloud_a EC2 DescribeRegions; cloud_b the subscription\'s locations; cloud_c the project\'s regions)' })),
  resourceTypes: Type.Optional(Type.Array(Type.String({ pattern: '^(aws|azurerm|google)_[a-z0-9_]+$', maxLength: 100 }), { maxItems: 80, description: 'Default: every supported type of the account\'s provider' })),
}, { additionalProperties: false });
export type StartScan = Static<typeof StartScan>;

export const ScanStarted = Type.Object({
  scanId: Type.String(), status: Type.Literal('running'), cloudAccountId: Type.String(), regions: Type.Array(Type.String()), startedAt: Timestamp,
});

export const ScanView = Type.Object({
  _id: Type.String(), scanId: Type.String(),
  status: Type.Enum(SCAN_STATUSES), cloudAccountId: Type.String(), accountName: Type.String(), regions: Type.Array(Type.String()),
  resourceTypes: Type.Array(Type.String()),
  resourcesFound: Type.Integer(), orphansFound: Type.Integer(), duration: Nullable(Type.Number({ description: 'Seconds' })),
  progress: Type.Object({ regionsDone: Type.Integer(), regionsTotal: Type.Integer() }),
  sdkCalls: Nullable(Type.Integer()),
  error: Nullable(Type.String()), startedAt: Timestamp, completedAt: Nullable(Timestamp),
});
export const scanView = (s: DiscoveryScan): Static<typeof ScanView> => ({
  _id: s._id, scanId: s._id, status: s.status, cloudAccountId: s.cloudAccountId, accountName: s.accountName, regions: s.regions, resourceTypes: s.resourceTypes,
  resourcesFound: s.resourcesFound, orphansFound: s.orphansFound, duration: s.duration, progress: s.progress, sdkCalls: s.sdkCalls, error: s.error,
  startedAt: s.startedAt.toISOString(), completedAt: s.completedAt?.toISOString() ?? null,
});
export const ScanQuery = Type.Object({ ...pageFields(), status: Type.Optional(Type.Enum(SCAN_STATUSES)), cloudAccountId: Type.Optional(AccountId) });
export const ScanPage = Type.Object({ scans: Type.Array(ScanView), total: Type.Integer(), page: Type.Integer(), pages: Type.Integer() });

export const IacStatus = Type.Enum(IAC_STATUSES);
export const ResourceView = Type.Object({
  _id: Type.String(), cloudAccountId: Type.String(), resourceType: Type.String(), service: Type.String(),
  resourceId: Type.String({ description: "The cloud's id, as `terraform import` takes it" }), region: Type.String(),
  iacStatus: IacStatus, managedBy: Type.Array(Type.Object({ repositoryConfigId: Type.String(), address: Type.String() })),
  attributes: Type.Record(Type.String(), Type.Unknown()), estimatedMonthlyCost: Type.Number(), missing: Type.Boolean(),
  firstSeenAt: Timestamp, lastSeenAt: Timestamp,
});
export const resourceView = (r: DiscoveredResource): Static<typeof ResourceView> => ({
  _id: r._id, cloudAccountId: r.cloudAccountId, resourceType: r.resourceType, service: r.service, resourceId: r.resourceId, region: r.region,
  iacStatus: r.iacStatus, managedBy: r.managedBy, attributes: r.attributes, estimatedMonthlyCost: r.estimatedMonthlyCost, missing: r.missing,
  firstSeenAt: r.firstSeenAt.toISOString(), lastSeenAt: r.lastSeenAt.toISOString(),
});
export const SetStatus = Type.Object({ iacStatus: Type.Union([Type.Literal('ignored'), Type.Literal('orphan')], { description: "'orphan' undoes 'ignored' (a managed resource shows managed again)" }) }, { additionalProperties: false });

export const GeneratedIac = Type.Object({ resourceId: Type.String(), resourceType: Type.String(), iac: Type.String(), importCommand: Type.String() });
export const Validation = Type.Object({
  resourceId: Type.String(),
  valid: Type.Union([Type.Boolean(), Type.Null()], { description: 'true/false from terraform or tofu validate; false when the HCL does not parse; null when only the parser ran (no terraform/tofu, or none could initialise): not validated, `message` says why' }),
  lastValidated: Timestamp,
  message: Type.Optional(Type.String({ description: 'Why it is invalid (the parser\'s or the validator\'s message), or why it was not validated' })),
  validator: Type.Optional(Type.String({ description: 'What ran last: terraform or tofu (validate), or hcl2json (the parser only)' })),
});

const NumberMap = Type.Record(Type.String(), Type.Number());
export const AccountQuery = Type.Object({ accountId: Type.Optional(AccountId) });
export const Dashboard = Type.Object({
  totalResources: Type.Integer(), managed: Type.Integer(), orphan: Type.Integer(), ignored: Type.Integer(),
  iacCoverage: Type.Number({ description: 'managed / (total - ignored), percent, one decimal' }), byService: NumberMap, byRegion: NumberMap,
});
export const CostQuery = Type.Object({ accountId: Type.Optional(AccountId), iacStatus: Type.Optional(IacStatus) });
export const Costs = Type.Object({
  totalEstimatedMonthlyCost: Type.Number(), byService: NumberMap, orphanCost: Type.Number(),
  currency: Type.Literal('USD'),
  pricesAsOf: Type.Union([Type.String(), Type.Null()], { description: 'null: the built-in table claims no date (its prices were not read from a dated source)' }),
  priceSource: Type.String({ description: 'Where the prices come from: `list prices (built-in table)`, us-east-1 on-demand list prices typed into plugins/discovery/prices.ts' }),
});
export const Bucket = Type.Object({
  name: Type.String(), region: Type.String(), iacStatus: IacStatus, publicAccess: Type.Boolean(), encryption: Type.String(), versioning: Type.Boolean(),
});
export const BucketList = Type.Object({ buckets: Type.Array(Bucket) });
