// Replay answers for the S3 readers: a bucket exists when any state resource names it; each
// sub-resource's answer comes from its standalone resource when the state has one, else from
// the bucket's inline attribute; absent configuration answers the API's own 404 error.
import {
  GetBucketEncryption$, GetBucketPolicy$, GetBucketTagging$, GetBucketVersioning$, GetPublicAccessBlock$, HeadBucket$,
} from '@aws-sdk/client-s3';
import { isObject } from '../../../values.ts';
import { answer, str, type FakeWorld } from '../reader.ts';
import { block, bool, FakeError, opt, stateTags, tagList } from '../replay/kit.ts';

const bucketOf = (a: Record<string, unknown>) => str(a.bucket || a.id);
const find = (world: FakeWorld, type: string, bucket: string) => world.of(type).map((i) => i.attributes).find((a) => bucketOf(a) === bucket);

function existing(world: FakeWorld, bucket: string): void {
  const types = ['aws_s3_bucket', 'aws_s3_bucket_versioning', 'aws_s3_bucket_server_side_encryption_configuration', 'aws_s3_bucket_public_access_block', 'aws_s3_bucket_policy'];
  if (!types.some((t) => find(world, t, bucket))) throw new FakeError('NoSuchBucket', 'The specified bucket does not exist', 404);
}

type BucketInput = { Bucket: string };
const headBucket = answer<BucketInput>('s3', HeadBucket$, (input, world) => { existing(world, input.Bucket); return {}; });

const versioning = answer<BucketInput>('s3', GetBucketVersioning$, (input, world) => {
  existing(world, input.Bucket);
  const own = find(world, 'aws_s3_bucket_versioning', input.Bucket);
  if (own) {
    const c = block(own.versioning_configuration);
    const status = str(c.status);
    return { Status: status === 'Disabled' ? undefined : opt(status), MFADelete: opt(c.mfa_delete) };
  }
  const inline = block(find(world, 'aws_s3_bucket', input.Bucket)?.versioning);
  return { Status: bool(inline.enabled) ? 'Enabled' : undefined, MFADelete: bool(inline.mfa_delete) ? 'Enabled' : undefined };
});

const encryption = answer<BucketInput>('s3', GetBucketEncryption$, (input, world) => {
  existing(world, input.Bucket);
  const own = find(world, 'aws_s3_bucket_server_side_encryption_configuration', input.Bucket);
  const rules = own ? own.rule : block(find(world, 'aws_s3_bucket', input.Bucket)?.server_side_encryption_configuration).rule;
  const list = (Array.isArray(rules) ? rules : []).filter(isObject);
  if (!list.length) throw new FakeError('ServerSideEncryptionConfigurationNotFoundError', 'The server side encryption configuration was not found', 404);
  return { ServerSideEncryptionConfiguration: { Rules: list.map((r) => {
    const d = block(r.apply_server_side_encryption_by_default);
    return {
      ApplyServerSideEncryptionByDefault: d.sse_algorithm ? { SSEAlgorithm: str(d.sse_algorithm), KMSMasterKeyID: opt(d.kms_master_key_id) } : undefined,
      BucketKeyEnabled: bool(r.bucket_key_enabled),
    };
  }) } };
});

const publicAccess = answer<BucketInput>('s3', GetPublicAccessBlock$, (input, world) => {
  existing(world, input.Bucket);
  const a = find(world, 'aws_s3_bucket_public_access_block', input.Bucket);
  if (!a) throw new FakeError('NoSuchPublicAccessBlockConfiguration', 'The public access block configuration was not found', 404);
  return { PublicAccessBlockConfiguration: {
    BlockPublicAcls: bool(a.block_public_acls), BlockPublicPolicy: bool(a.block_public_policy),
    IgnorePublicAcls: bool(a.ignore_public_acls), RestrictPublicBuckets: bool(a.restrict_public_buckets),
  } };
});

const tagging = answer<BucketInput>('s3', GetBucketTagging$, (input, world) => {
  existing(world, input.Bucket);
  const bucket = find(world, 'aws_s3_bucket', input.Bucket);
  const tags = bucket ? tagList(stateTags(bucket)) : [];
  if (!tags.length) throw new FakeError('NoSuchTagSet', 'The TagSet does not exist', 404);
  return { TagSet: tags };
});

const policy = answer<BucketInput>('s3', GetBucketPolicy$, (input, world) => {
  existing(world, input.Bucket);
  const text = opt(find(world, 'aws_s3_bucket_policy', input.Bucket)?.policy) ?? opt(find(world, 'aws_s3_bucket', input.Bucket)?.policy);
  if (!text) throw new FakeError('NoSuchBucketPolicy', 'The bucket policy does not exist', 404);
  return { Policy: text };
});

export const S3_ANSWERS = [headBucket, versioning, encryption, publicAccess, tagging, policy];
