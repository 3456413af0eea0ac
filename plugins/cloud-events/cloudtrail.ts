// CloudTrail records in, as EventBridge delivers them (`detail-type` "AWS API Call via
// CloudTrail", the record under `detail`) or bare (`eventVersion`, `eventID`, ...): which are
// read-only, which are not CloudTrail API calls at all, and the resource ids a write call
// touched. CALLS below is the one table mapping each call to the ids it touches and the kind
// of attribute it changes (cause attribution prefers a call that changes the drifted
// attribute). Ids are what the engine's state instances carry as `id` (where.ts resourceIdOf):
// instance and group ids, bucket, role, user and table names, queue URLs, topic ARNs.
import { badRequest } from '../../core/errors.ts';

export const EVENTBRIDGE_DETAIL_TYPE = 'AWS API Call via CloudTrail';
export const MAX_RECORDS = 100;

/** One write call as stored (the record's named fields only). */
export interface ParsedEvent {
  eventId: string;
  eventTime: Date;
  eventName: string;
  eventSource: string | null;
  awsRegion: string | null;
  recipientAccountId: string | null;
  userIdentity: { type: string | null; arn: string | null; principalId: string | null; issuer: string | null };
  sourceIPAddress: string | null;
  userAgent: string | null;
  errorCode: string | null;
  resourceIds: string[];
}

export type Classified = { kind: 'write'; event: ParsedEvent } | { kind: 'readOnly' } | { kind: 'ignored' };

/** A path into a record: `requestParameters.instancesSet.items[].instanceId` (`[]`: every item). */
type Path = string;
interface CallSpec {
  /** Where the touched ids are; each value read is passed through `id` when given. */
  ids: Path[];
  /** Attribute names (or prefixes, `ingress`) of the drifted resource this call changes; [] = any. */
  attributes: string[];
}

const REQ = 'requestParameters';
const RES = 'responseElements';
const sgIngress = { ids: [`${REQ}.groupId`], attributes: ['ingress'] };
const sgEgress = { ids: [`${REQ}.groupId`], attributes: ['egress'] };
const bucket = (attributes: string[]) => ({ ids: [`${REQ}.bucketName`], attributes });
const role = (attributes: string[]) => ({ ids: [`${REQ}.roleName`], attributes });
const user = (attributes: string[]) => ({ ids: [`${REQ}.userName`], attributes });
const instance = (attributes: string[]) => ({ ids: [`${REQ}.instanceId`, `${REQ}.instancesSet.items[].instanceId`, `${RES}.instancesSet.items[].instanceId`], attributes });
const tags = ['tags', 'tags_all'];

/**
 * Every write call mapped, by eventName. Calls not listed are stored with the ids GENERIC_KEYS
 * finds in their request parameters (and attribute kind "any").
 */
export const CALLS: Record<string, CallSpec> = {
  // EC2 security groups (aws_security_group, its rules)
  AuthorizeSecurityGroupIngress: sgIngress,
  RevokeSecurityGroupIngress: sgIngress,
  AuthorizeSecurityGroupEgress: sgEgress,
  RevokeSecurityGroupEgress: sgEgress,
  ModifySecurityGroupRules: { ids: [`${REQ}.ModifySecurityGroupRulesRequest.GroupId`, `${REQ}.groupId`], attributes: ['ingress', 'egress'] },
  UpdateSecurityGroupRuleDescriptionsIngress: sgIngress,
  UpdateSecurityGroupRuleDescriptionsEgress: sgEgress,
  DeleteSecurityGroup: { ids: [`${REQ}.groupId`], attributes: [] },
  // EC2 instances, volumes, network
  ModifyInstanceAttribute: instance(['instance_type', 'disable_api_termination', 'disable_api_stop', 'source_dest_check', 'ebs_optimized', 'vpc_security_group_ids', 'security_groups', 'user_data', 'instance_initiated_shutdown_behavior']),
  ModifyInstanceMetadataOptions: instance(['metadata_options']),
  TerminateInstances: instance([]),
  StopInstances: instance(['instance_state']),
  StartInstances: instance(['instance_state']),
  MonitorInstances: instance(['monitoring']),
  UnmonitorInstances: instance(['monitoring']),
  AssociateIamInstanceProfile: instance(['iam_instance_profile']),
  ModifyVolume: { ids: [`${REQ}.ModifyVolumeRequest.VolumeId`, `${REQ}.volumeId`], attributes: ['size', 'type', 'iops', 'throughput'] },
  DeleteVolume: { ids: [`${REQ}.volumeId`], attributes: [] },
  ModifyVpcAttribute: { ids: [`${REQ}.vpcId`], attributes: ['enable_dns_support', 'enable_dns_hostnames'] },
  DeleteVpc: { ids: [`${REQ}.vpcId`], attributes: [] },
  ModifySubnetAttribute: { ids: [`${REQ}.subnetId`], attributes: ['map_public_ip_on_launch', 'assign_ipv6_address_on_creation'] },
  DeleteSubnet: { ids: [`${REQ}.subnetId`], attributes: [] },
  CreateRoute: { ids: [`${REQ}.routeTableId`], attributes: ['route'] },
  ReplaceRoute: { ids: [`${REQ}.routeTableId`], attributes: ['route'] },
  DeleteRoute: { ids: [`${REQ}.routeTableId`], attributes: ['route'] },
  DeleteRouteTable: { ids: [`${REQ}.routeTableId`], attributes: [] },
  DisassociateRouteTable: { ids: [`${REQ}.associationId`], attributes: [] },
  DetachInternetGateway: { ids: [`${REQ}.internetGatewayId`], attributes: ['vpc_id'] },
  DeleteInternetGateway: { ids: [`${REQ}.internetGatewayId`], attributes: [] },
  DeleteNatGateway: { ids: [`${REQ}.DeleteNatGatewayRequest.NatGatewayId`, `${REQ}.natGatewayId`], attributes: [] },
  ReleaseAddress: { ids: [`${REQ}.allocationId`], attributes: [] },
  ModifyNetworkInterfaceAttribute: { ids: [`${REQ}.networkInterfaceId`], attributes: ['security_groups', 'source_dest_check', 'description'] },
  DeleteKeyPair: { ids: [`${REQ}.keyName`, `${REQ}.keyPairId`], attributes: [] },
  ModifyLaunchTemplate: { ids: [`${REQ}.ModifyLaunchTemplateRequest.LaunchTemplateId`], attributes: ['default_version'] },
  CreateLaunchTemplateVersion: { ids: [`${REQ}.CreateLaunchTemplateVersionRequest.LaunchTemplateId`], attributes: ['latest_version'] },
  CreateTags: { ids: [`${REQ}.resourcesSet.items[].resourceId`], attributes: tags },
  DeleteTags: { ids: [`${REQ}.resourcesSet.items[].resourceId`], attributes: tags },
  // S3 (aws_s3_bucket and its per-feature resources, all keyed by the bucket name)
  PutBucketVersioning: bucket(['versioning', 'versioning_configuration']),
  PutBucketPolicy: bucket(['policy']),
  DeleteBucketPolicy: bucket(['policy']),
  PutBucketEncryption: bucket(['server_side_encryption_configuration', 'rule']),
  DeleteBucketEncryption: bucket(['server_side_encryption_configuration', 'rule']),
  PutBucketPublicAccessBlock: bucket(['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets']),
  DeleteBucketPublicAccessBlock: bucket(['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets']),
  PutBucketAcl: bucket(['acl', 'grant']),
  PutBucketTagging: bucket(tags),
  DeleteBucketTagging: bucket(tags),
  PutBucketLogging: bucket(['logging']),
  PutBucketLifecycle: bucket(['lifecycle_rule']),
  PutBucketWebsite: bucket(['website']),
  PutBucketCors: bucket(['cors_rule']),
  DeleteBucket: bucket([]),
  // IAM (role, user, group, policy names; policies by ARN)
  PutRolePolicy: { ids: [`${REQ}.roleName`], attributes: ['inline_policy', 'policy'] },
  DeleteRolePolicy: { ids: [`${REQ}.roleName`], attributes: ['inline_policy', 'policy'] },
  AttachRolePolicy: { ids: [`${REQ}.roleName`, `${REQ}.policyArn`], attributes: ['managed_policy_arns', 'policy_arn'] },
  DetachRolePolicy: { ids: [`${REQ}.roleName`, `${REQ}.policyArn`], attributes: ['managed_policy_arns', 'policy_arn'] },
  UpdateAssumeRolePolicy: role(['assume_role_policy']),
  UpdateRole: role(['description', 'max_session_duration']),
  PutRolePermissionsBoundary: role(['permissions_boundary']),
  DeleteRolePermissionsBoundary: role(['permissions_boundary']),
  TagRole: role(tags),
  UntagRole: role(tags),
  DeleteRole: role([]),
  PutUserPolicy: user(['policy']),
  DeleteUserPolicy: user(['policy']),
  AttachUserPolicy: { ids: [`${REQ}.userName`, `${REQ}.policyArn`], attributes: ['policy_arn'] },
  DetachUserPolicy: { ids: [`${REQ}.userName`, `${REQ}.policyArn`], attributes: ['policy_arn'] },
  UpdateAccessKey: { ids: [`${REQ}.accessKeyId`, `${REQ}.userName`], attributes: ['status'] },
  DeleteAccessKey: { ids: [`${REQ}.accessKeyId`], attributes: [] },
  TagUser: user(tags),
  UntagUser: user(tags),
  DeleteUser: user([]),
  UpdateUser: user(['path', 'name']),
  DeleteGroup: { ids: [`${REQ}.groupName`], attributes: [] },
  CreatePolicyVersion: { ids: [`${REQ}.policyArn`], attributes: ['policy'] },
  SetDefaultPolicyVersion: { ids: [`${REQ}.policyArn`], attributes: ['policy'] },
  DeletePolicy: { ids: [`${REQ}.policyArn`], attributes: [] },
  AddRoleToInstanceProfile: { ids: [`${REQ}.instanceProfileName`, `${REQ}.roleName`], attributes: ['role'] },
  RemoveRoleFromInstanceProfile: { ids: [`${REQ}.instanceProfileName`, `${REQ}.roleName`], attributes: ['role'] },
  // KMS, SQS, SNS, logs, Lambda, DynamoDB, ECR, ECS, RDS, ELB, Auto Scaling, Route 53
  DisableKey: { ids: [`${REQ}.keyId`], attributes: ['is_enabled'] },
  EnableKey: { ids: [`${REQ}.keyId`], attributes: ['is_enabled'] },
  EnableKeyRotation: { ids: [`${REQ}.keyId`], attributes: ['enable_key_rotation'] },
  DisableKeyRotation: { ids: [`${REQ}.keyId`], attributes: ['enable_key_rotation'] },
  PutKeyPolicy: { ids: [`${REQ}.keyId`], attributes: ['policy'] },
  ScheduleKeyDeletion: { ids: [`${REQ}.keyId`], attributes: [] },
  UpdateAlias: { ids: [`${REQ}.aliasName`, `${REQ}.targetKeyId`], attributes: ['target_key_id'] },
  SetQueueAttributes: { ids: [`${REQ}.queueUrl`], attributes: [] },
  DeleteQueue: { ids: [`${REQ}.queueUrl`], attributes: [] },
  SetTopicAttributes: { ids: [`${REQ}.topicArn`], attributes: [] },
  DeleteTopic: { ids: [`${REQ}.topicArn`], attributes: [] },
  PutRetentionPolicy: { ids: [`${REQ}.logGroupName`], attributes: ['retention_in_days'] },
  DeleteRetentionPolicy: { ids: [`${REQ}.logGroupName`], attributes: ['retention_in_days'] },
  DeleteLogGroup: { ids: [`${REQ}.logGroupName`], attributes: [] },
  UpdateFunctionConfiguration20150331v2: { ids: [`${REQ}.functionName`], attributes: [] },
  UpdateFunctionCode20150331v2: { ids: [`${REQ}.functionName`], attributes: ['source_code_hash'] },
  DeleteFunction20150331: { ids: [`${REQ}.functionName`], attributes: [] },
  UpdateTable: { ids: [`${REQ}.tableName`], attributes: ['billing_mode', 'read_capacity', 'write_capacity', 'stream_enabled'] },
  DeleteTable: { ids: [`${REQ}.tableName`], attributes: [] },
  PutImageTagMutability: { ids: [`${REQ}.repositoryName`], attributes: ['image_tag_mutability'] },
  PutImageScanningConfiguration: { ids: [`${REQ}.repositoryName`], attributes: ['image_scanning_configuration'] },
  DeleteRepository: { ids: [`${REQ}.repositoryName`], attributes: [] },
  UpdateService: { ids: [`${REQ}.service`, `${RES}.service.serviceArn`], attributes: ['desired_count', 'task_definition'] },
  DeleteService: { ids: [`${REQ}.service`, `${RES}.service.serviceArn`], attributes: [] },
  DeleteCluster: { ids: [`${REQ}.cluster`, `${RES}.cluster.clusterArn`], attributes: [] },
  ModifyDBInstance: { ids: [`${REQ}.dBInstanceIdentifier`], attributes: [] },
  DeleteDBInstance: { ids: [`${REQ}.dBInstanceIdentifier`], attributes: [] },
  ModifyDBSubnetGroup: { ids: [`${REQ}.dBSubnetGroupName`], attributes: ['subnet_ids', 'description'] },
  ModifyLoadBalancerAttributes: { ids: [`${REQ}.loadBalancerArn`], attributes: [] },
  DeleteLoadBalancer: { ids: [`${REQ}.loadBalancerArn`], attributes: [] },
  ModifyListener: { ids: [`${REQ}.listenerArn`], attributes: [] },
  DeleteListener: { ids: [`${REQ}.listenerArn`], attributes: [] },
  ModifyTargetGroup: { ids: [`${REQ}.targetGroupArn`], attributes: [] },
  ModifyTargetGroupAttributes: { ids: [`${REQ}.targetGroupArn`], attributes: [] },
  DeleteTargetGroup: { ids: [`${REQ}.targetGroupArn`], attributes: [] },
  UpdateAutoScalingGroup: { ids: [`${REQ}.autoScalingGroupName`], attributes: ['min_size', 'max_size', 'desired_capacity', 'launch_template'] },
  DeleteAutoScalingGroup: { ids: [`${REQ}.autoScalingGroupName`], attributes: [] },
  ChangeResourceRecordSets: { ids: [`${REQ}.hostedZoneId`], attributes: ['records', 'ttl'] },
  DeleteHostedZone: { ids: [`${REQ}.id`], attributes: [] },
};

/** For calls CALLS does not list: request parameters whose value is the id of a resource the engine reads. */
const GENERIC_KEYS = [
  'groupId', 'instanceId', 'bucketName', 'roleName', 'userName', 'groupName', 'policyArn', 'vpcId', 'subnetId', 'routeTableId',
  'internetGatewayId', 'natGatewayId', 'allocationId', 'networkInterfaceId', 'volumeId', 'keyName', 'launchTemplateId',
  'instanceProfileName', 'keyId', 'queueUrl', 'topicArn', 'logGroupName', 'functionName', 'tableName', 'repositoryName',
  'dBInstanceIdentifier', 'dBSubnetGroupName', 'loadBalancerArn', 'listenerArn', 'targetGroupArn', 'autoScalingGroupName', 'hostedZoneId',
];

const READ_ONLY = /^(Describe|Get|List|Head|Lookup|Search|BatchGet|Scan|Query)/;
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const MAX_IDS = 100;

/** Values at a path; `[]` after a segment walks every item of the array there. */
function valuesAt(record: unknown, path: Path): unknown[] {
  let current: unknown[] = [record];
  for (const raw of path.split('.')) {
    const each = raw.endsWith('[]');
    const key = each ? raw.slice(0, -2) : raw;
    const next: unknown[] = [];
    for (const c of current) {
      if (!c || typeof c !== 'object' || Array.isArray(c)) continue;
      const v = (c as Record<string, unknown>)[key];
      if (each) { if (Array.isArray(v)) next.push(...v); } else if (v !== undefined) next.push(v);
    }
    current = next;
  }
  return current;
}

/**
 * The ids as states hold them: a Lambda function or KMS key named by ARN is held by name or key
 * id; a hosted zone id loses its `/hostedzone/` prefix. Both forms are kept for ARNs, so a
 * resource whose state id is the ARN (SNS topics, ECS services, load balancers) matches too.
 */
function normalized(id: string): string[] {
  const out = [id];
  const fn = /^arn:aws[a-z-]*:lambda:[^:]*:\d*:function:([^:]+)/.exec(id);
  if (fn) out.push(fn[1]);
  const key = /^arn:aws[a-z-]*:kms:[^:]*:\d*:key\/(.+)$/.exec(id);
  if (key) out.push(key[1]);
  const zone = /^\/?hostedzone\/(.+)$/.exec(id);
  if (zone) out.push(zone[1]);
  const role = /^arn:aws[a-z-]*:iam::\d*:(?:role|user|group)\/(?:.*\/)?([^/]+)$/.exec(id);
  if (role) out.push(role[1]);
  return out;
}

/** The resource ids a write call touched, by CALLS or, for a call it does not list, GENERIC_KEYS. */
export function resourceIdsOf(record: Record<string, unknown>, eventName: string): string[] {
  const spec = CALLS[eventName];
  const values = spec
    ? spec.ids.flatMap((p) => valuesAt(record, p))
    : GENERIC_KEYS.flatMap((k) => valuesAt(record, `${REQ}.${k}`));
  const ids = new Set<string>();
  for (const v of values) {
    const s = str(v);
    if (s && s.length <= 2048) for (const n of normalized(s)) ids.add(n);
  }
  return [...ids].slice(0, MAX_IDS);
}

/** The attribute kinds a call changes ([] = any, or unknown). */
export const attributesOf = (eventName: string): string[] => CALLS[eventName]?.attributes ?? [];

/** Whether a call (by CALLS) changes a diff attribute: `ingress.0.cidr_blocks` matches `ingress`. */
export function changesAttribute(eventName: string, attribute: string): boolean {
  const kinds = attributesOf(eventName);
  return kinds.some((k) => attribute === k || attribute.startsWith(`${k}.`) || attribute.startsWith(`${k}[`));
}

const shortText = (v: unknown, max: number) => { const s = str(v); return s ? s.slice(0, max) : null; };

/**
 * One record of a batch: the CloudTrail record itself (unwrapped from EventBridge), or the
 * reason the batch is refused. `at` names the record in the message (`record 3`).
 */
export function classify(item: unknown, at: number): Classified {
  const where = `record ${at}`;
  if (!item || typeof item !== 'object' || Array.isArray(item)) throw badRequest(`${where} is not a JSON object`);
  let record = item as Record<string, unknown>;
  if ('detail-type' in record) {
    if (record['detail-type'] !== EVENTBRIDGE_DETAIL_TYPE) return { kind: 'ignored' };
    const detail = record.detail;
    if (!detail || typeof detail !== 'object' || Array.isArray(detail)) throw badRequest(`${where}: detail must be the CloudTrail record (an object)`);
    record = detail as Record<string, unknown>;
  }
  for (const field of ['eventID', 'eventName', 'eventTime'] as const) {
    if (!str(record[field])) throw badRequest(`${where} has no ${field}: every CloudTrail record carries eventID, eventName and eventTime`);
  }
  const eventTime = new Date(record.eventTime as string);
  if (Number.isNaN(eventTime.getTime())) throw badRequest(`${where}: eventTime "${String(record.eventTime).slice(0, 40)}" is not an ISO 8601 time`);
  const eventId = record.eventID as string;
  const eventName = record.eventName as string;
  if (eventId.length > 200 || eventName.length > 200) throw badRequest(`${where}: eventID and eventName are at most 200 characters`);
  if (record.readOnly === true || READ_ONLY.test(eventName)) return { kind: 'readOnly' };
  const identity = (record.userIdentity && typeof record.userIdentity === 'object' ? record.userIdentity : {}) as Record<string, unknown>;
  const issuer = valuesAt(identity, 'sessionContext.sessionIssuer.arn')[0];
  return {
    kind: 'write',
    event: {
      eventId, eventTime, eventName,
      eventSource: shortText(record.eventSource, 200),
      awsRegion: shortText(record.awsRegion, 50),
      recipientAccountId: shortText(record.recipientAccountId, 50),
      userIdentity: {
        type: shortText(identity.type, 50), arn: shortText(identity.arn, 2048),
        principalId: shortText(identity.principalId, 500), issuer: shortText(issuer, 2048),
      },
      sourceIPAddress: shortText(record.sourceIPAddress, 200),
      userAgent: shortText(record.userAgent, 1000),
      errorCode: shortText(record.errorCode, 200),
      resourceIds: resourceIdsOf(record, eventName),
    },
  };
}

/** The batch as sent: one object or an array of at most MAX_RECORDS (413 beyond). */
export function recordsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object') return [body];
  throw badRequest('The body must be a CloudTrail record (a JSON object) or an array of them');
}
