// A distribution's config (GetDistributionConfig) in the provider's attribute shape: every
// CloudFront list is {Quantity, Items}; the provider writes one-element nested blocks and sets.
import type { CacheBehavior, DefaultCacheBehavior, DistributionConfig, Origin } from '@aws-sdk/client-cloudfront';
import { canonicalText } from '../../../values.ts';

const items = <T>(l: { Items?: T[] } | undefined): T[] => l?.Items ?? [];

/**
 * Set-valued blocks come back in the API's order, the state holds them in the provider's hash
 * order: the live elements are put where the state has the element of the same key (an origin
 * by origin_id), so each one is compared with its own counterpart; new ones fill the gaps.
 */
export function alignTo<T extends Record<string, unknown>>(state: unknown, live: T[], key: (e: Record<string, unknown>) => string): T[] {
  const want = (Array.isArray(state) ? state : []).map((e) => key(e as Record<string, unknown>));
  const rest = [...live];
  const out: (T | undefined)[] = want.map((k) => {
    const i = rest.findIndex((e) => key(e) === k);
    return i >= 0 ? rest.splice(i, 1)[0] : undefined;
  });
  for (let i = 0; i < out.length && rest.length; i++) if (!out[i]) out[i] = rest.shift();
  return [...out.filter((e): e is T => e !== undefined), ...rest];
}

const sub = (state: unknown, i: number, k: string): unknown => (Array.isArray(state) ? (state[i] as Record<string, unknown> | undefined)?.[k] : undefined);

function behaviour(b: DefaultCacheBehavior | CacheBehavior, state: unknown): Record<string, unknown> {
  const fv = b.ForwardedValues;
  const out: Record<string, unknown> = {
    allowed_methods: items(b.AllowedMethods), cached_methods: items(b.AllowedMethods?.CachedMethods), compress: b.Compress ?? false,
    default_ttl: b.DefaultTTL ?? 0, max_ttl: b.MaxTTL ?? 0, min_ttl: b.MinTTL ?? 0, field_level_encryption_id: b.FieldLevelEncryptionId ?? '',
    forwarded_values: fv ? [{
      query_string: fv.QueryString ?? false, headers: items(fv.Headers), query_string_cache_keys: items(fv.QueryStringCacheKeys),
      cookies: fv.Cookies ? [{ forward: fv.Cookies.Forward ?? '', whitelisted_names: items(fv.Cookies.WhitelistedNames) }] : [],
    }] : [],
    lambda_function_association: alignTo(sub(state, 0, 'lambda_function_association'), items(b.LambdaFunctionAssociations)
      .map((l) => ({ event_type: l.EventType ?? '', lambda_arn: l.LambdaFunctionARN ?? '', include_body: l.IncludeBody ?? false })), (e) => String(e.event_type)),
    function_association: alignTo(sub(state, 0, 'function_association'), items(b.FunctionAssociations)
      .map((f) => ({ event_type: f.EventType ?? '', function_arn: f.FunctionARN ?? '' })), (e) => String(e.event_type)),
    smooth_streaming: b.SmoothStreaming ?? false, target_origin_id: b.TargetOriginId, viewer_protocol_policy: b.ViewerProtocolPolicy,
    trusted_signers: items(b.TrustedSigners), trusted_key_groups: items(b.TrustedKeyGroups), cache_policy_id: b.CachePolicyId ?? '',
    origin_request_policy_id: b.OriginRequestPolicyId ?? '', response_headers_policy_id: b.ResponseHeadersPolicyId ?? '',
    realtime_log_config_arn: b.RealtimeLogConfigArn ?? '',
  };
  if ('PathPattern' in b) out.path_pattern = b.PathPattern;
  return out;
}

function origin(o: Origin, state: Record<string, unknown> | undefined): Record<string, unknown> {
  const c = o.CustomOriginConfig;
  const oai = o.S3OriginConfig?.OriginAccessIdentity ?? '';
  return {
    origin_id: o.Id, domain_name: o.DomainName, origin_path: o.OriginPath ?? '', connection_attempts: o.ConnectionAttempts ?? 3,
    connection_timeout: o.ConnectionTimeout ?? 10, origin_access_control_id: o.OriginAccessControlId ?? '',
    custom_header: alignTo(state?.custom_header, items(o.CustomHeaders).map((h) => ({ name: h.HeaderName ?? '', value: h.HeaderValue ?? '' })), (e) => String(e.name)),
    custom_origin_config: c ? [{
      http_port: c.HTTPPort, https_port: c.HTTPSPort, origin_protocol_policy: c.OriginProtocolPolicy, origin_ssl_protocols: items(c.OriginSslProtocols),
      origin_read_timeout: c.OriginReadTimeout ?? 30, origin_keepalive_timeout: c.OriginKeepaliveTimeout ?? 5,
    }] : [],
    // The provider keeps an S3 origin config only when it names an origin access identity.
    s3_origin_config: oai ? [{ origin_access_identity: oai }] : [],
    origin_shield: o.OriginShield ? [{ enabled: o.OriginShield.Enabled ?? false, origin_shield_region: o.OriginShield.OriginShieldRegion ?? '' }] : [],
  };
}

export function distributionAttributes(d: DistributionConfig, state: Record<string, unknown>, tags: Record<string, string>): Record<string, unknown> {
  const v = d.ViewerCertificate;
  const viewer: Record<string, unknown> = {};
  if (v?.IAMCertificateId) Object.assign(viewer, { iam_certificate_id: v.IAMCertificateId, ssl_support_method: v.SSLSupportMethod ?? '' });
  if (v?.ACMCertificateArn) Object.assign(viewer, { acm_certificate_arn: v.ACMCertificateArn, ssl_support_method: v.SSLSupportMethod ?? '' });
  if (v?.CloudFrontDefaultCertificate !== undefined) viewer.cloudfront_default_certificate = v.CloudFrontDefaultCertificate;
  if (v?.MinimumProtocolVersion) viewer.minimum_protocol_version = v.MinimumProtocolVersion;
  const stateOrigins = Array.isArray(state.origin) ? state.origin as Record<string, unknown>[] : [];
  const origins = alignTo(state.origin, items(d.Origins).map((o) => origin(o, stateOrigins.find((s) => s.origin_id === o.Id))), (e) => String(e.origin_id));
  const geo = d.Restrictions?.GeoRestriction;
  const log = d.Logging;
  return {
    enabled: d.Enabled, aliases: items(d.Aliases), comment: d.Comment ?? '', default_root_object: d.DefaultRootObject ?? '', http_version: d.HttpVersion ?? '',
    is_ipv6_enabled: d.IsIPV6Enabled ?? false, price_class: d.PriceClass ?? '', web_acl_id: d.WebACLId ?? '',
    origin: origins,
    origin_group: alignTo(state.origin_group, items(d.OriginGroups).map((g) => ({
      origin_id: g.Id ?? '', failover_criteria: [{ status_codes: items(g.FailoverCriteria?.StatusCodes) }],
      member: items(g.Members).map((m) => ({ origin_id: m.OriginId ?? '' })),
    })), (e) => String(e.origin_id)),
    default_cache_behavior: d.DefaultCacheBehavior ? [behaviour(d.DefaultCacheBehavior, state.default_cache_behavior)] : [],
    ordered_cache_behavior: items(d.CacheBehaviors).map((b, i) => behaviour(b, [Array.isArray(state.ordered_cache_behavior) ? state.ordered_cache_behavior[i] : undefined])),
    custom_error_response: alignTo(state.custom_error_response, items(d.CustomErrorResponses).map((e) => ({
      error_code: e.ErrorCode, response_code: e.ResponseCode ? Number(e.ResponseCode) : 0, response_page_path: e.ResponsePagePath ?? '',
      error_caching_min_ttl: e.ErrorCachingMinTTL ?? 0,
    })), (e) => canonicalText(e.error_code)),
    logging_config: log?.Enabled ? [{ bucket: log.Bucket ?? '', include_cookies: log.IncludeCookies ?? false, prefix: log.Prefix ?? '' }] : [],
    restrictions: [{ geo_restriction: [{ restriction_type: geo?.RestrictionType ?? 'none', locations: items(geo) }] }],
    viewer_certificate: [viewer], continuous_deployment_policy_id: d.ContinuousDeploymentPolicyId ?? '', staging: d.Staging ?? false,
    tags, tags_all: tags,
  };
}
