// aws_cloudfront_distribution (global; CloudFront answers in us-east-1): GetDistributionConfig
// and ListTagsForResource per distribution, at most PER_RESOURCE_CONCURRENCY at once
// (ListDistributions lacks the root object, logging and tags).
import {
  GetDistributionConfig$, GetDistributionConfigCommand, ListTagsForResource$, ListTagsForResourceCommand, type GetDistributionConfigCommandOutput,
  type ListTagsForResourceCommandOutput,
} from '@aws-sdk/client-cloudfront';
import { mapLimit } from '../../../limit.ts';
import { isObject, tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt, stateTags, tagList } from '../replay/kit.ts';
import { distributionAttributes } from './shape.ts';

const NOT_FOUND = ['NoSuchDistribution', 'NoSuchResource'];
const q = <T>(l: T[]) => ({ Quantity: l.length, Items: l.length ? l : undefined });
const objs = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObject) : []);

function fakeDistribution(world: FakeWorld, idOrArn: string): Record<string, unknown> {
  const a = attrsOf(world, 'aws_cloudfront_distribution').find((x) => str(x.id) === idOrArn || str(x.arn) === idOrArn);
  if (!a) throw new FakeError('NoSuchDistribution', 'The specified distribution does not exist.', 404);
  return a;
}

/** A cache behaviour block back into the API's shape. */
function behaviour(b: Record<string, unknown>) {
  const fv = block(b.forwarded_values);
  const ck = block(fv.cookies);
  return {
    PathPattern: opt(b.path_pattern), TargetOriginId: str(b.target_origin_id), ViewerProtocolPolicy: str(b.viewer_protocol_policy),
    TrustedSigners: { Enabled: list(b.trusted_signers).length > 0, ...q(list(b.trusted_signers)) },
    TrustedKeyGroups: { Enabled: list(b.trusted_key_groups).length > 0, ...q(list(b.trusted_key_groups)) },
    AllowedMethods: { ...q(list(b.allowed_methods)), CachedMethods: q(list(b.cached_methods)) },
    SmoothStreaming: bool(b.smooth_streaming), Compress: bool(b.compress), FieldLevelEncryptionId: opt(b.field_level_encryption_id) ?? '',
    LambdaFunctionAssociations: q(objs(b.lambda_function_association).map((l) => ({ LambdaFunctionARN: str(l.lambda_arn), EventType: str(l.event_type), IncludeBody: bool(l.include_body) }))),
    FunctionAssociations: q(objs(b.function_association).map((f) => ({ FunctionARN: str(f.function_arn), EventType: str(f.event_type) }))),
    CachePolicyId: opt(b.cache_policy_id), OriginRequestPolicyId: opt(b.origin_request_policy_id), ResponseHeadersPolicyId: opt(b.response_headers_policy_id),
    RealtimeLogConfigArn: opt(b.realtime_log_config_arn),
    ForwardedValues: Object.keys(fv).length ? {
      QueryString: bool(fv.query_string) ?? false, Headers: q(list(fv.headers)), QueryStringCacheKeys: q(list(fv.query_string_cache_keys)),
      Cookies: { Forward: opt(ck.forward) ?? 'none', WhitelistedNames: q(list(ck.whitelisted_names)) },
    } : undefined,
    MinTTL: num(b.min_ttl), DefaultTTL: num(b.default_ttl), MaxTTL: num(b.max_ttl),
  };
}

function origin(o: Record<string, unknown>) {
  const c = block(o.custom_origin_config);
  const s3 = block(o.s3_origin_config);
  const shield = block(o.origin_shield);
  return {
    Id: str(o.origin_id), DomainName: str(o.domain_name), OriginPath: opt(o.origin_path) ?? '',
    CustomHeaders: q(objs(o.custom_header).map((h) => ({ HeaderName: str(h.name), HeaderValue: str(h.value) }))),
    // An S3 origin without an identity is answered as the service does: an empty identity.
    S3OriginConfig: Object.keys(c).length ? undefined : { OriginAccessIdentity: opt(s3.origin_access_identity) ?? '' },
    CustomOriginConfig: Object.keys(c).length ? {
      HTTPPort: num(c.http_port), HTTPSPort: num(c.https_port), OriginProtocolPolicy: str(c.origin_protocol_policy),
      OriginSslProtocols: q(list(c.origin_ssl_protocols)), OriginReadTimeout: num(c.origin_read_timeout), OriginKeepaliveTimeout: num(c.origin_keepalive_timeout),
    } : undefined,
    ConnectionAttempts: num(o.connection_attempts), ConnectionTimeout: num(o.connection_timeout), OriginAccessControlId: opt(o.origin_access_control_id) ?? '',
    OriginShield: Object.keys(shield).length ? { Enabled: bool(shield.enabled), OriginShieldRegion: opt(shield.origin_shield_region) } : undefined,
  };
}

const answers = [
  answer<{ Id: string }>('cloudfront', GetDistributionConfig$, (input, world) => {
    const a = fakeDistribution(world, input.Id);
    const v = block(a.viewer_certificate);
    const geo = block(block(a.restrictions).geo_restriction);
    const log = block(a.logging_config);
    return { ETag: opt(a.etag) ?? 'REPLAY', DistributionConfig: {
      CallerReference: opt(a.caller_reference) ?? 'replay', Aliases: q(list(a.aliases)), DefaultRootObject: opt(a.default_root_object) ?? '',
      Origins: q(objs(a.origin).map(origin)),
      OriginGroups: q(objs(a.origin_group).map((g) => ({
        Id: str(g.origin_id), FailoverCriteria: { StatusCodes: q(list(block(g.failover_criteria).status_codes).map(Number)) },
        Members: q(objs(g.member).map((m) => ({ OriginId: str(m.origin_id) }))),
      }))),
      DefaultCacheBehavior: behaviour(block(a.default_cache_behavior)), CacheBehaviors: q(objs(a.ordered_cache_behavior).map(behaviour)),
      CustomErrorResponses: q(objs(a.custom_error_response).map((e) => ({
        ErrorCode: num(e.error_code), ResponseCode: opt(e.response_code) && num(e.response_code) ? String(e.response_code) : undefined,
        ResponsePagePath: opt(e.response_page_path), ErrorCachingMinTTL: num(e.error_caching_min_ttl),
      }))),
      Comment: opt(a.comment) ?? '', PriceClass: opt(a.price_class), Enabled: bool(a.enabled) ?? false, WebACLId: opt(a.web_acl_id) ?? '',
      Logging: { Enabled: Object.keys(log).length > 0, IncludeCookies: bool(log.include_cookies) ?? false, Bucket: opt(log.bucket) ?? '', Prefix: opt(log.prefix) ?? '' },
      ViewerCertificate: {
        CloudFrontDefaultCertificate: bool(v.cloudfront_default_certificate), IAMCertificateId: opt(v.iam_certificate_id), ACMCertificateArn: opt(v.acm_certificate_arn),
        SSLSupportMethod: opt(v.ssl_support_method), MinimumProtocolVersion: opt(v.minimum_protocol_version),
      },
      Restrictions: { GeoRestriction: { RestrictionType: opt(geo.restriction_type) ?? 'none', ...q(list(geo.locations)) } },
      HttpVersion: opt(a.http_version), IsIPV6Enabled: bool(a.is_ipv6_enabled), ContinuousDeploymentPolicyId: opt(a.continuous_deployment_policy_id),
      Staging: bool(a.staging),
    } };
  }),
  answer<{ Resource: string }>('cloudfront', ListTagsForResource$, (input, world) => ({ Tags: q(tagList(stateTags(fakeDistribution(world, input.Resource)))) })),
];

export const distributionReader: TypeReader = {
  spec: {},
  answers,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance }) => {
    const cf = ctx.cloudfront();
    const id = str(instance.attributes.id);
    const arn = str(instance.attributes.arn);
    const [out, tags] = await Promise.all([
      unlessAbsent(ctx.send<GetDistributionConfigCommandOutput>(cf, new GetDistributionConfigCommand({ Id: id }), 'cloudfront:GetDistributionConfig'), NOT_FOUND),
      arn ? unlessAbsent(ctx.send<ListTagsForResourceCommandOutput>(cf, new ListTagsForResourceCommand({ Resource: arn }), 'cloudfront:ListTagsForResource'), NOT_FOUND) : undefined,
    ]);
    if (!out?.DistributionConfig) return null;
    // Without an ARN in the state there is nothing to ask the tags of: the state's own tags stand.
    const liveTags = tags ? tagMap(tags.Tags?.Items) : undefined;
    const attrs = distributionAttributes(out.DistributionConfig, instance.attributes, liveTags ?? {});
    if (!liveTags) { delete attrs.tags; delete attrs.tags_all; }
    return attrs;
  }),
};
