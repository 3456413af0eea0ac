// S3: buckets and the bucket-level resources (versioning, default encryption, public access block,
// policy). Here: each type's reader, the attributes never reported as drift (computed, write-only or
// Terraform-side) and the family's severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import {
  bucketEncryptionReader, bucketPolicyReader, bucketReader, bucketVersioningReader, publicAccessBlockReader,
} from './buckets.ts';

export const S3_READERS: Record<string, TypeReader> = {
  aws_s3_bucket: bucketReader,
  aws_s3_bucket_versioning: bucketVersioningReader,
  aws_s3_bucket_server_side_encryption_configuration: bucketEncryptionReader,
  aws_s3_bucket_public_access_block: publicAccessBlockReader,
  aws_s3_bucket_policy: bucketPolicyReader,
};

export const S3_IGNORED: Record<string, string[]> = {
  aws_s3_bucket: [
    'bucket_domain_name', 'bucket_regional_domain_name', 'hosted_zone_id', 'bucket_prefix', 'force_destroy',
    'acceleration_status', 'request_payer', 'website_domain', 'website_endpoint', 'object_lock_enabled',
    'versioning.*.mfa_delete',
  ],
  aws_s3_bucket_versioning: ['expected_bucket_owner', 'mfa', 'versioning_configuration.*.mfa_delete'],
  aws_s3_bucket_server_side_encryption_configuration: ['expected_bucket_owner'],
};

/** First match wins across the whole table (rules.ts): a family's specific rules come before its broader ones. */
export const S3_RULES: SeverityRule[] = [
  { id: 's3-public-access-block-removed', severity: 'critical', description: 'S3 public access block removed',
    rationale: 'Nothing stops a bucket ACL or policy from making the objects public any more.',
    types: ['aws_s3_bucket_public_access_block'], changeTypes: ['deleted'] },
  { id: 's3-public-access-block-loosened', severity: 'critical', description: 'S3 public access block setting turned off',
    rationale: 'A guard against public ACLs or policies is off: the objects can be made public.',
    types: ['aws_s3_bucket_public_access_block'], attributes: ['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets'], becomes: [false] },
  { id: 's3-encryption-removed', severity: 'high', description: 'S3 default encryption removed',
    rationale: 'New objects are no longer encrypted with the key the code chose.',
    types: ['aws_s3_bucket_server_side_encryption_configuration'], changeTypes: ['deleted'] },
  { id: 's3-bucket-encryption-removed', severity: 'high', description: 'S3 default encryption removed',
    rationale: 'New objects are no longer encrypted with the key the code chose.',
    types: ['aws_s3_bucket'], attributes: ['server_side_encryption_configuration'], becomes: [''] },
  { id: 's3-encryption-changed', severity: 'high', description: 'S3 default encryption changed',
    rationale: 'Objects are encrypted differently (another key or algorithm) than reviewed.',
    types: ['aws_s3_bucket', 'aws_s3_bucket_server_side_encryption_configuration'], attributes: ['server_side_encryption_configuration*', 'rule*'] },
  { id: 's3-bucket-policy-changed', severity: 'high', description: 'S3 bucket policy changed',
    rationale: 'Who may read or write the bucket changed outside review.',
    types: ['aws_s3_bucket', 'aws_s3_bucket_policy'], attributes: ['policy'] },
  { id: 's3-versioning-disabled', severity: 'medium', description: 'S3 bucket versioning suspended',
    rationale: 'Overwritten or deleted objects can no longer be recovered.',
    types: ['aws_s3_bucket_versioning'], attributes: ['versioning_configuration.*.status'], becomes: ['Suspended', 'Disabled'] },
  { id: 's3-bucket-versioning-disabled', severity: 'medium', description: 'S3 bucket versioning suspended',
    rationale: 'Overwritten or deleted objects can no longer be recovered.',
    types: ['aws_s3_bucket'], attributes: ['versioning.*.enabled'], becomes: [false] },
];
