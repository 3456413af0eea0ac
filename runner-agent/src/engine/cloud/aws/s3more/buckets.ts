// aws_s3_bucket_acl, _website_configuration, _ownership_controls, _cors_configuration and
// _lifecycle_configuration: one Get* call per bucket each (S3 has no batch reads), memoised for
// the scan. A configuration the API no longer has (its own 404 error) is a deleted resource.
import {
  GetBucketAclCommand, GetBucketCorsCommand, GetBucketLifecycleConfigurationCommand, GetBucketOwnershipControlsCommand, GetBucketWebsiteCommand,
  type GetBucketAclCommandOutput, type GetBucketCorsCommandOutput, type GetBucketLifecycleConfigurationCommandOutput,
  type GetBucketOwnershipControlsCommandOutput, type GetBucketWebsiteCommandOutput,
} from '@aws-sdk/client-s3';
import { genericKey } from '../../../diff.ts';
import { isObject, scalarKey } from '../../../values.ts';
import { perBucket, s3Get } from './kit.ts';
import { providerRule, ruleKey } from './lifecycle-shape.ts';
import { S3MORE_ANSWERS } from './buckets.answers.ts';

/** A grant's identity: who (by type, id, URI or e-mail; display names change) and what permission. */
export const grantKey = (g: unknown): string[] => {
  if (!isObject(g)) return [];
  const who = Array.isArray(g.grantee) && isObject(g.grantee[0]) ? g.grantee[0] : {};
  return [[who.type, who.id, who.uri, who.email_address, g.permission].map(scalarKey).join('|')];
};

export const bucketAclReader = perBucket(S3MORE_ANSWERS, async (ctx, { region }, bucket) => {
  const acl = await s3Get<GetBucketAclCommandOutput>(ctx, region, bucket, 'GetBucketAcl', new GetBucketAclCommand({ Bucket: bucket }), []);
  if (!acl) return null;
  return {
    bucket,
    access_control_policy: [{
      grant: (acl.Grants ?? []).map((g) => ({
        grantee: [{ type: g.Grantee?.Type, id: g.Grantee?.ID ?? '', uri: g.Grantee?.URI ?? '', email_address: g.Grantee?.EmailAddress ?? '', display_name: g.Grantee?.DisplayName ?? '' }],
        permission: g.Permission,
      })),
      owner: [{ id: acl.Owner?.ID ?? '', display_name: acl.Owner?.DisplayName ?? '' }],
    }],
  };
}, { sets: { 'access_control_policy.0.grant': grantKey } });

export const bucketWebsiteReader = perBucket(S3MORE_ANSWERS, async (ctx, { region }, bucket) => {
  const w = await s3Get<GetBucketWebsiteCommandOutput>(ctx, region, bucket, 'GetBucketWebsite', new GetBucketWebsiteCommand({ Bucket: bucket }), ['NoSuchWebsiteConfiguration']);
  if (!w) return null;
  return {
    bucket,
    index_document: w.IndexDocument ? [{ suffix: w.IndexDocument.Suffix }] : [],
    error_document: w.ErrorDocument ? [{ key: w.ErrorDocument.Key }] : [],
    redirect_all_requests_to: w.RedirectAllRequestsTo ? [{ host_name: w.RedirectAllRequestsTo.HostName, protocol: w.RedirectAllRequestsTo.Protocol ?? '' }] : [],
    routing_rule: (w.RoutingRules ?? []).map((r) => ({
      condition: r.Condition ? [{ http_error_code_returned_equals: r.Condition.HttpErrorCodeReturnedEquals ?? '', key_prefix_equals: r.Condition.KeyPrefixEquals ?? '' }] : [],
      redirect: [{
        host_name: r.Redirect?.HostName ?? '', http_redirect_code: r.Redirect?.HttpRedirectCode ?? '', protocol: r.Redirect?.Protocol ?? '',
        replace_key_prefix_with: r.Redirect?.ReplaceKeyPrefixWith ?? '', replace_key_with: r.Redirect?.ReplaceKeyWith ?? '',
      }],
    })),
  };
}, { sets: { routing_rule: genericKey } });

export const bucketOwnershipReader = perBucket(S3MORE_ANSWERS, async (ctx, { region }, bucket) => {
  const o = await s3Get<GetBucketOwnershipControlsCommandOutput>(ctx, region, bucket, 'GetBucketOwnershipControls',
    new GetBucketOwnershipControlsCommand({ Bucket: bucket }), ['OwnershipControlsNotFoundError']);
  const rules = o?.OwnershipControls?.Rules ?? [];
  return rules.length ? { bucket, rule: rules.map((r) => ({ object_ownership: r.ObjectOwnership })) } : null;
});

export const bucketCorsReader = perBucket(S3MORE_ANSWERS, async (ctx, { region }, bucket) => {
  const c = await s3Get<GetBucketCorsCommandOutput>(ctx, region, bucket, 'GetBucketCors', new GetBucketCorsCommand({ Bucket: bucket }), ['NoSuchCORSConfiguration']);
  const rules = c?.CORSRules ?? [];
  if (!rules.length) return null;
  return {
    bucket,
    cors_rule: rules.map((r) => ({
      id: r.ID ?? '', allowed_headers: r.AllowedHeaders ?? [], allowed_methods: r.AllowedMethods ?? [], allowed_origins: r.AllowedOrigins ?? [],
      expose_headers: r.ExposeHeaders ?? [], max_age_seconds: r.MaxAgeSeconds ?? 0,
    })),
  };
}, { sets: { cors_rule: genericKey } });

export const bucketLifecycleReader = perBucket(S3MORE_ANSWERS, async (ctx, { region }, bucket) => {
  const l = await s3Get<GetBucketLifecycleConfigurationCommandOutput>(ctx, region, bucket, 'GetBucketLifecycleConfiguration',
    new GetBucketLifecycleConfigurationCommand({ Bucket: bucket }), ['NoSuchLifecycleConfiguration']);
  const rules = l?.Rules ?? [];
  return rules.length ? { bucket, rule: rules.map(providerRule) } : null;
}, { sets: { rule: ruleKey } });
