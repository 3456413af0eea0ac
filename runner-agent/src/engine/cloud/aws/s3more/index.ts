// S3 beyond the bucket's core configuration: objects, ACLs, website, ownership controls, CORS
// and lifecycle. Spread into AWS_READERS, ignore.ts and rules.ts.
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { bucketAclReader, bucketCorsReader, bucketLifecycleReader, bucketOwnershipReader, bucketWebsiteReader } from './buckets.ts';
import { s3ObjectReader } from './object.ts';
import { S3MORE_RULES as RULES } from './rules.ts';

export const S3MORE_READERS: Record<string, TypeReader> = {
  aws_s3_object: s3ObjectReader,
  aws_s3_bucket_object: s3ObjectReader,
  aws_s3_bucket_acl: bucketAclReader,
  aws_s3_bucket_website_configuration: bucketWebsiteReader,
  aws_s3_bucket_ownership_controls: bucketOwnershipReader,
  aws_s3_bucket_cors_configuration: bucketCorsReader,
  aws_s3_bucket_lifecycle_configuration: bucketLifecycleReader,
};

// Write-only content (the provider keeps what the configuration said), computed values, and the
// canned `acl` (the API answers grants, never the canned name; access_control_policy is compared).
const OBJECT = ['source', 'content', 'content_base64', 'source_hash', 'acl', 'force_destroy', 'version_id', 'etag_mode', 'checksum_*',
  'override_provider', 'object_lock_*', 'expected_bucket_owner', 'checksum_algorithm', 'server_side_encryption_context'];

export const S3MORE_IGNORED: Record<string, string[]> = {
  aws_s3_object: OBJECT,
  aws_s3_bucket_object: OBJECT,
  aws_s3_bucket_acl: ['acl', 'expected_bucket_owner', 'access_control_policy.*.owner.*.display_name'],
  aws_s3_bucket_website_configuration: ['expected_bucket_owner', 'routing_rules', 'website_domain', 'website_endpoint'],
  aws_s3_bucket_ownership_controls: [],
  aws_s3_bucket_cors_configuration: ['expected_bucket_owner'],
  aws_s3_bucket_lifecycle_configuration: ['expected_bucket_owner', 'transition_default_minimum_object_size'],
};

export const S3MORE_RULES: SeverityRule[] = RULES;
