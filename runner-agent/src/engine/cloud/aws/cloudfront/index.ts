// CloudFront: distributions, their computed attributes and severity rules.
import type { SeverityRule } from '../../../rules.ts';
import type { DiffEntry } from '../../../types.ts';
import { isEmpty, isObject } from '../../../values.ts';
import type { TypeReader } from '../reader.ts';
import { distributionReader } from './distribution.ts';

export const CLOUDFRONT_READERS: Record<string, TypeReader> = { aws_cloudfront_distribution: distributionReader };

export const CLOUDFRONT_IGNORED: Record<string, string[]> = {
  // Computed by CloudFront (status, etag, dates, its own domain), or provider-side switches the API never holds.
  aws_cloudfront_distribution: [
    'etag', 'status', 'domain_name', 'last_modified_time', 'in_progress_validation_batches', 'caller_reference', 'trusted_signers', 'trusted_key_groups',
    'hosted_zone_id', 'retain_on_delete', 'wait_for_deployment',
  ],
};

type Origin = Record<string, unknown>;
const origins = (v: unknown): Origin[] => (Array.isArray(v) ? v.filter(isObject) : []);
const protection = (o: Origin) => {
  const s3 = Array.isArray(o.s3_origin_config) && isObject(o.s3_origin_config[0]) ? o.s3_origin_config[0].origin_access_identity : undefined;
  return !isEmpty(o.origin_access_control_id) || !isEmpty(s3);
};

/** An origin list that changed as a whole: some origin the state holds now points elsewhere or lost its access control. */
function originRetargeted(entry: DiffEntry): boolean {
  const after = new Map(origins(entry.after).map((o) => [String(o.origin_id), o]));
  return origins(entry.before).some((b) => {
    const a = after.get(String(b.origin_id));
    return a !== undefined && (a.domain_name !== b.domain_name || (protection(b) && !protection(a)));
  });
}

export const CLOUDFRONT_RULES: SeverityRule[] = [
  { id: 'cloudfront-viewer-allow-all', severity: 'critical', description: 'CloudFront cache behaviour now serves plain HTTP (allow-all)',
    rationale: 'Viewers may now fetch the content unencrypted, open to interception and tampering.',
    types: ['aws_cloudfront_distribution'], attributes: ['default_cache_behavior.*.viewer_protocol_policy', 'ordered_cache_behavior.*.viewer_protocol_policy'], becomes: ['allow-all'] },
  { id: 'cloudfront-origin-retargeted', severity: 'critical', description: 'CloudFront origin points at another bucket or domain',
    rationale: 'The distribution now serves whatever another bucket or host holds, under the site\'s name.',
    types: ['aws_cloudfront_distribution'], attributes: ['origin.*.domain_name'] },
  { id: 'cloudfront-origin-access-removed', severity: 'critical', description: 'CloudFront origin lost its origin access control or identity',
    rationale: 'The bucket behind it must then allow public reads to serve, or is already serving publicly.',
    types: ['aws_cloudfront_distribution'], attributes: ['origin.*.origin_access_control_id', 'origin.*.s3_origin_config', 'origin.*.s3_origin_config.*.origin_access_identity'], becomes: [''] },
  { id: 'cloudfront-origins-replaced', severity: 'critical', description: 'CloudFront origins changed: one points elsewhere or lost its access control',
    rationale: 'The distribution now serves another bucket or host, or a bucket left open to serve it.',
    types: ['aws_cloudfront_distribution'], attributes: ['origin'], test: { describe: 'holds an origin of the state now pointing at another domain or stripped of its access control', fn: originRetargeted } },
  { id: 'cloudfront-web-acl-removed', severity: 'high', description: 'CloudFront distribution lost its WAF web ACL',
    rationale: 'Requests reach the origins without the firewall rules the code attached.',
    types: ['aws_cloudfront_distribution'], attributes: ['web_acl_id'], becomes: [''] },
  { id: 'cloudfront-tls-changed', severity: 'high', description: 'CloudFront certificate or minimum TLS version changed',
    rationale: 'How viewers\' connections are secured changed outside review.',
    types: ['aws_cloudfront_distribution'], attributes: ['viewer_certificate*'] },
];
