// Replay answers for the S3 configuration readers, from each type's own state resource; a bucket
// exists when any S3 resource of the state names it, and a configuration the state lacks answers
// the API's own 404 error.
import {
  GetBucketAcl$, GetBucketCors$, GetBucketLifecycleConfiguration$, GetBucketOwnershipControls$, GetBucketWebsite$,
} from '@aws-sdk/client-s3';
import { isObject } from '../../../values.ts';
import { answer, type FakeWorld } from '../reader.ts';
import { block, FakeError, list, num, opt } from '../replay/kit.ts';
import { bucketOf } from './kit.ts';
import { apiRule } from './lifecycle-shape.ts';

const many = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** The state's resource of `type` for the bucket; NoSuchBucket when no S3 resource names it at all. */
export function ownOf(world: FakeWorld, type: string, bucket: string, missing: [string, string]): Record<string, unknown> {
  const s3 = ['aws_s3_bucket', 'aws_s3_bucket_acl', 'aws_s3_bucket_website_configuration', 'aws_s3_bucket_ownership_controls', 'aws_s3_bucket_cors_configuration',
    'aws_s3_bucket_lifecycle_configuration', 'aws_s3_bucket_versioning', 'aws_s3_bucket_policy', 'aws_s3_bucket_public_access_block',
    'aws_s3_bucket_server_side_encryption_configuration', 'aws_s3_object', 'aws_s3_bucket_object'];
  const named = (t: string) => world.of(t).map((i) => i.attributes).find((a) => bucketOf(a) === bucket);
  if (!s3.some(named)) throw new FakeError('NoSuchBucket', 'The specified bucket does not exist', 404);
  const own = named(type);
  if (!own) throw new FakeError(missing[0], missing[1], 404);
  return own;
}

type In = { Bucket: string };

const acl = answer<In>('s3', GetBucketAcl$, (input, world) => {
  const a = ownOf(world, 'aws_s3_bucket_acl', input.Bucket, ['NoSuchBucket', 'The specified bucket does not exist']);
  const p = block(a.access_control_policy);
  const owner = block(p.owner);
  return {
    Owner: { ID: opt(owner.id), DisplayName: opt(owner.display_name) },
    Grants: many(p.grant).map((g) => {
      const w = block(g.grantee);
      return { Grantee: { Type: opt(w.type), ID: opt(w.id), URI: opt(w.uri), EmailAddress: opt(w.email_address), DisplayName: opt(w.display_name) }, Permission: opt(g.permission) };
    }),
  };
});

const website = answer<In>('s3', GetBucketWebsite$, (input, world) => {
  const a = ownOf(world, 'aws_s3_bucket_website_configuration', input.Bucket, ['NoSuchWebsiteConfiguration', 'The specified bucket does not have a website configuration']);
  const redirect = block(a.redirect_all_requests_to);
  return {
    IndexDocument: block(a.index_document).suffix ? { Suffix: opt(block(a.index_document).suffix) } : undefined,
    ErrorDocument: block(a.error_document).key ? { Key: opt(block(a.error_document).key) } : undefined,
    RedirectAllRequestsTo: redirect.host_name ? { HostName: opt(redirect.host_name), Protocol: opt(redirect.protocol) } : undefined,
    RoutingRules: many(a.routing_rule).map((r) => {
      const c = block(r.condition);
      const d = block(r.redirect);
      return {
        Condition: Object.keys(c).length ? { HttpErrorCodeReturnedEquals: opt(c.http_error_code_returned_equals), KeyPrefixEquals: opt(c.key_prefix_equals) } : undefined,
        Redirect: { HostName: opt(d.host_name), HttpRedirectCode: opt(d.http_redirect_code), Protocol: opt(d.protocol), ReplaceKeyPrefixWith: opt(d.replace_key_prefix_with), ReplaceKeyWith: opt(d.replace_key_with) },
      };
    }),
  };
});

const ownership = answer<In>('s3', GetBucketOwnershipControls$, (input, world) => {
  const a = ownOf(world, 'aws_s3_bucket_ownership_controls', input.Bucket, ['OwnershipControlsNotFoundError', 'The bucket ownership controls were not found']);
  return { OwnershipControls: { Rules: many(a.rule).map((r) => ({ ObjectOwnership: opt(r.object_ownership) })) } };
});

const cors = answer<In>('s3', GetBucketCors$, (input, world) => {
  const a = ownOf(world, 'aws_s3_bucket_cors_configuration', input.Bucket, ['NoSuchCORSConfiguration', 'The CORS configuration does not exist']);
  return { CORSRules: many(a.cors_rule).map((r) => ({
    ID: opt(r.id), AllowedHeaders: list(r.allowed_headers), AllowedMethods: list(r.allowed_methods), AllowedOrigins: list(r.allowed_origins),
    ExposeHeaders: list(r.expose_headers), MaxAgeSeconds: num(r.max_age_seconds) || undefined,
  })) };
});

const lifecycle = answer<In>('s3', GetBucketLifecycleConfiguration$, (input, world) => {
  const a = ownOf(world, 'aws_s3_bucket_lifecycle_configuration', input.Bucket, ['NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist']);
  return { Rules: many(a.rule).map(apiRule) };
});

export const S3MORE_ANSWERS = [acl, website, ownership, cors, lifecycle];
