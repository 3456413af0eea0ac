// S3: no batch reads exist, so each bucket costs a few calls, at most PER_RESOURCE_CONCURRENCY at
// once. Answers are shared per bucket between aws_s3_bucket and its sub-resource types.
import {
  GetBucketEncryptionCommand, GetBucketPolicyCommand, GetBucketTaggingCommand, GetBucketVersioningCommand,
  GetPublicAccessBlockCommand, HeadBucketCommand,
  type GetBucketEncryptionCommandOutput, type GetBucketPolicyCommandOutput, type GetBucketTaggingCommandOutput,
  type GetBucketVersioningCommandOutput, type GetPublicAccessBlockCommandOutput, type ServerSideEncryptionRule,
} from '@aws-sdk/client-s3';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { tagMap } from '../../../values.ts';
import { errorName, httpStatus, PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { once, str, type ReadItem, type TypeReader } from '../reader.ts';
import { S3_ANSWERS } from './buckets.answers.ts';

const policyPaths = { policies: ['policy'] };
// The API leaves BucketKeyEnabled out when false; the provider writes false (some states null).
const bucketSpec = { ...policyPaths, defaults: { 'server_side_encryption_configuration.*.rule.*.bucket_key_enabled': false } };

/** Runs an S3 read; the listed error names (and 404s, e.g. a bucket deleted mid-scan) mean "not there": undefined. */
async function get<O>(ctx: AwsContext, region: string, bucket: string, op: string, command: unknown, absent: string[]): Promise<O | undefined> {
  return once(ctx, `s3:${op}:${bucket}`, async () => {
    try {
      return await ctx.send<O>(ctx.s3(region), command, `s3:${op}`);
    } catch (e) {
      if (absent.includes(errorName(e)) || httpStatus(e) === 404) return undefined;
      throw e;
    }
  });
}

function bucketExists(ctx: AwsContext, region: string, bucket: string): Promise<boolean> {
  return once(ctx, `s3:exists:${bucket}`, async () => {
    try {
      await ctx.send(ctx.s3(region), new HeadBucketCommand({ Bucket: bucket }), 's3:HeadBucket');
      return true;
    } catch (e) {
      if (errorName(e) === 'NotFound' || errorName(e) === 'NoSuchBucket' || httpStatus(e) === 404) return false;
      throw e;
    }
  });
}

const versioning = (ctx: AwsContext, r: string, b: string) =>
  get<GetBucketVersioningCommandOutput>(ctx, r, b, 'GetBucketVersioning', new GetBucketVersioningCommand({ Bucket: b }), []);
const encryption = (ctx: AwsContext, r: string, b: string) =>
  get<GetBucketEncryptionCommandOutput>(ctx, r, b, 'GetBucketEncryption', new GetBucketEncryptionCommand({ Bucket: b }), ['ServerSideEncryptionConfigurationNotFoundError']);
const publicAccess = (ctx: AwsContext, r: string, b: string) =>
  get<GetPublicAccessBlockCommandOutput>(ctx, r, b, 'GetPublicAccessBlock', new GetPublicAccessBlockCommand({ Bucket: b }), ['NoSuchPublicAccessBlockConfiguration']);
const tagging = (ctx: AwsContext, r: string, b: string) =>
  get<GetBucketTaggingCommandOutput>(ctx, r, b, 'GetBucketTagging', new GetBucketTaggingCommand({ Bucket: b }), ['NoSuchTagSet']);
const policy = (ctx: AwsContext, r: string, b: string) =>
  get<GetBucketPolicyCommandOutput>(ctx, r, b, 'GetBucketPolicy', new GetBucketPolicyCommand({ Bucket: b }), ['NoSuchBucketPolicy']);

/** Encryption rules in the provider's shape. */
const encryptionRules = (rules: ServerSideEncryptionRule[] | undefined) => (rules ?? []).map((r) => ({
  apply_server_side_encryption_by_default: r.ApplyServerSideEncryptionByDefault
    ? [{ sse_algorithm: r.ApplyServerSideEncryptionByDefault.SSEAlgorithm, kms_master_key_id: r.ApplyServerSideEncryptionByDefault.KMSMasterKeyID ?? '' }]
    : [],
  bucket_key_enabled: r.BucketKeyEnabled ?? false,
}));

const versionStatus = (v: GetBucketVersioningCommandOutput | undefined) => v?.Status ?? 'Disabled';
const bucketOf = (item: ReadItem) => str(item.instance.attributes.bucket || item.instance.attributes.id);

/** Per-bucket reader: `build` returns the live attributes, or null when the resource is gone. */
function perBucket(build: (ctx: AwsContext, region: string, bucket: string, state: Record<string, unknown>) => Promise<LiveAttributes | null>, spec = {}): TypeReader {
  return {
    spec,
    answers: S3_ANSWERS,
    read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async (item) => {
      const bucket = bucketOf(item);
      if (!bucket || !(await bucketExists(ctx, item.region, bucket))) return null;
      return build(ctx, item.region, bucket, item.instance.attributes);
    }),
  };
}

export const bucketReader = perBucket(async (ctx, region, bucket, state) => {
  // Only the reads whose attributes the state holds (older providers kept fewer inline).
  const [tags, ver, enc, pol] = await Promise.all([
    'tags' in state ? tagging(ctx, region, bucket) : undefined,
    'versioning' in state ? versioning(ctx, region, bucket) : undefined,
    'server_side_encryption_configuration' in state ? encryption(ctx, region, bucket) : undefined,
    'policy' in state ? policy(ctx, region, bucket) : undefined,
  ]);
  const live: LiveAttributes = { bucket, id: bucket, arn: `arn:aws:s3:::${bucket}` };
  if ('tags' in state) live.tags = tagMap(tags?.TagSet);
  if ('versioning' in state) live.versioning = [{ enabled: ver?.Status === 'Enabled', mfa_delete: ver?.MFADelete === 'Enabled' }];
  if ('server_side_encryption_configuration' in state) {
    const rules = encryptionRules(enc?.ServerSideEncryptionConfiguration?.Rules);
    live.server_side_encryption_configuration = rules.length ? [{ rule: rules }] : [];
  }
  if ('policy' in state) live.policy = pol?.Policy ?? '';
  return live;
}, bucketSpec);

export const bucketVersioningReader = perBucket(async (ctx, region, bucket) => {
  const v = await versioning(ctx, region, bucket);
  return { bucket, versioning_configuration: [{ status: versionStatus(v), mfa_delete: v?.MFADelete ?? '' }] };
});

export const bucketEncryptionReader = perBucket(async (ctx, region, bucket) => {
  const enc = await encryption(ctx, region, bucket);
  const rules = encryptionRules(enc?.ServerSideEncryptionConfiguration?.Rules);
  return rules.length ? { bucket, rule: rules } : null;
}, { defaults: { 'rule.*.bucket_key_enabled': false } });

export const publicAccessBlockReader = perBucket(async (ctx, region, bucket) => {
  const c = (await publicAccess(ctx, region, bucket))?.PublicAccessBlockConfiguration;
  if (!c) return null;
  return {
    bucket,
    block_public_acls: c.BlockPublicAcls ?? false,
    block_public_policy: c.BlockPublicPolicy ?? false,
    ignore_public_acls: c.IgnorePublicAcls ?? false,
    restrict_public_buckets: c.RestrictPublicBuckets ?? false,
  };
});

export const bucketPolicyReader = perBucket(async (ctx, region, bucket) => {
  const p = await policy(ctx, region, bucket);
  return p?.Policy ? { bucket, policy: p.Policy } : null;
}, policyPaths);
