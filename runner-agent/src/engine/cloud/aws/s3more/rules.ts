// Severity rules of the S3 configuration types (engine rules.ts explains the conditions); tag-only
// edits fall through to the generic `tags-only` (low).
import type { SeverityRule } from '../../../rules.ts';
import { canonicalText, isObject, scalarKey } from '../../../values.ts';
import { expirationOf } from './lifecycle-shape.ts';

const PUBLIC_GROUPS = ['http://acs.amazonaws.com/groups/global/AllUsers', 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers'];

/** Expiration settings per rule id (a rule added or removed with an expiration counts too). */
function expirations(rules: unknown): Map<string, string> {
  const list = (Array.isArray(rules) ? rules : []).filter(isObject);
  return new Map(list.map((r) => [scalarKey(r.id), canonicalText(expirationOf(r))] as [string, string])
    .filter(([, e]) => e !== canonicalText(expirationOf({}))));
}

export const S3MORE_RULES: SeverityRule[] = [
  { id: 's3-acl-public', severity: 'critical', description: 'S3 bucket ACL now grants access to AllUsers or AuthenticatedUsers',
    rationale: 'Anyone on the internet (or any AWS account) can now list or read, and perhaps write, the bucket.',
    types: ['aws_s3_bucket_acl'], changeTypes: ['changed'], attributes: ['access_control_policy*'], gains: PUBLIC_GROUPS },
  { id: 's3-acl-changed', severity: 'high', description: 'S3 bucket ACL grants changed',
    rationale: 'Which accounts may read or write the bucket changed outside review.',
    types: ['aws_s3_bucket_acl'], changeTypes: ['changed'] },
  { id: 's3-website-changed', severity: 'high', description: 'S3 website configuration changed or removed',
    rationale: 'The website endpoint serves the bucket\'s objects over plain HTTP; what it serves, or where it redirects, changed outside review.',
    types: ['aws_s3_bucket_website_configuration'] },
  { id: 's3-ownership-controls-changed', severity: 'medium', description: 'S3 object ownership controls changed or removed',
    rationale: 'Whether ACLs take effect again, and who owns uploaded objects, changed.',
    types: ['aws_s3_bucket_ownership_controls'] },
  { id: 's3-lifecycle-deleted', severity: 'high', description: 'S3 lifecycle configuration deleted',
    rationale: 'Objects are no longer expired or moved as reviewed (costs, retention) by a rule nobody reviewed.',
    types: ['aws_s3_bucket_lifecycle_configuration'], changeTypes: ['deleted'] },
  { id: 's3-lifecycle-expiration-changed', severity: 'high', description: 'S3 lifecycle expiration changed',
    rationale: 'Objects are now deleted by a rule nobody reviewed.',
    types: ['aws_s3_bucket_lifecycle_configuration'], changeTypes: ['changed'], attributes: ['rule*'],
    test: { describe: 'the expiration (current or noncurrent versions) of some rule differs', fn: (d) => {
      const [a, b] = [expirations(d.before), expirations(d.after)];
      return a.size !== b.size || [...a].some(([k, v]) => b.get(k) !== v);
    } } },
];
