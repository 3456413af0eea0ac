// The detection engine's pure parts: addresses, normalisation, semantic policy comparison,
// the ignore table and file, the severity table, the plan JSON mapping and error mapping.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { S3ServiceException } from '@aws-sdk/client-s3';
import { IAMServiceException } from '@aws-sdk/client-iam';
import { formatAddress, parseAddress } from '../../runner-agent/src/engine/address.ts';
import { ruleAtoms } from '../../runner-agent/src/engine/cloud/aws/vpc/security-group-rules.ts';
import { compareAttributes, genericKey } from '../../runner-agent/src/engine/diff.ts';
import { ScanError, toScanError } from '../../runner-agent/src/engine/errors.ts';
import { buildIgnoreRules, parseIgnoreFile } from '../../runner-agent/src/engine/ignore.ts';
import { IGNORED_ATTRIBUTES } from '../../runner-agent/src/engine/catalogue.ts';
import { SEVERITY_RULES } from '../../runner-agent/src/engine/catalogue.ts';
import { classify } from '../../runner-agent/src/engine/rules.ts';
import { parseState } from '../../runner-agent/src/engine/state.ts';
import { mapResourceDrift } from '../../runner-agent/src/engine/tofu.ts';
import { isEmpty, normalizePolicy, samePolicy, scalarKey } from '../../runner-agent/src/engine/values.ts';

const noIgnore = buildIgnoreRules([], {});

t.test('addresses', async (t) => {
  t.equal(formatAddress({ type: 'aws_instance', name: 'web' }), 'aws_instance.web');
  t.equal(formatAddress({ type: 'aws_instance', name: 'web', indexKey: 0 }), 'aws_instance.web[0]');
  t.equal(formatAddress({ module: 'module.net["eu"]', type: 'aws_s3_bucket', name: 'b', indexKey: 'k.1' }), 'module.net["eu"].aws_s3_bucket.b["k.1"]');
  t.same(parseAddress('aws_instance.web[0]'), { module: undefined, mode: 'managed', type: 'aws_instance', name: 'web', indexKey: 0 });
  t.same(parseAddress('module.a[1].module.b.aws_s3_bucket.x["a]b.c"]'),
    { module: 'module.a[1].module.b', mode: 'managed', type: 'aws_s3_bucket', name: 'x', indexKey: 'a]b.c' }, 'quoted keys may hold dots and brackets');
  t.same(parseAddress('data.aws_caller_identity.me'), { module: undefined, mode: 'data', type: 'aws_caller_identity', name: 'me', indexKey: undefined });
  for (const bad of ['aws_instance', 'aws_instance.web.extra', 'aws_instance.web[', 'aws_instance..web']) {
    t.throws(() => parseAddress(bad), /invalid resource address/, `rejects ${bad}`);
  }
  const addr = 'module.x["a"].aws_instance.w[2]';
  t.equal(formatAddress(parseAddress(addr)), addr, 'format(parse(a)) round-trips');
});

t.test('state v4 reading', async (t) => {
  const state = JSON.stringify({ version: 4, resources: [
    { mode: 'managed', type: 'aws_instance', name: 'web', provider: 'provider["registry.terraform.io/hashicorp/aws"].west',
      instances: [{ index_key: 0, attributes: { id: 'i-1' } }, { index_key: 1, attributes: { id: 'i-2' } }, { deposed: 'abc', attributes: { id: 'i-0' } }] },
    { module: 'module.m', mode: 'managed', type: 'aws_s3_bucket', name: 'b', provider: 'provider["registry.terraform.io/hashicorp/aws"]', instances: [{ index_key: 'k', attributes: { id: 'b' } }] },
    { mode: 'data', type: 'aws_ami', name: 'a', instances: [{ attributes: { id: 'ami' } }] },
  ] });
  const got = parseState(state, 'x');
  t.same(got.map((i) => i.address), ['aws_instance.web[0]', 'aws_instance.web[1]', 'module.m.aws_s3_bucket.b["k"]'], 'managed, non-deposed instances only');
  t.equal(got[0].providerAlias, 'west', 'provider alias kept (for its region)');
  t.throws(() => parseState('{"version":3}', 'here'), { code: 'parse_error', message: /format version 3.*version 4/ });
  t.throws(() => parseState('nope', 'here'), { code: 'parse_error', message: /here is not valid JSON/ });
});

t.test('normalisation', async (t) => {
  for (const v of [null, undefined, '', [], {}, [null], { a: null }]) t.ok(isEmpty(v), `${JSON.stringify(v)} is empty`);
  t.notOk(isEmpty(false), 'false is a value');
  t.notOk(isEmpty(0), '0 is a value');
  t.equal(scalarKey(22), scalarKey('22'), 'number and numeric string');
  t.equal(scalarKey(true), scalarKey('true'), 'bool and its text');
  t.equal(scalarKey('1.50'), scalarKey(1.5));

  const cmp = (a: Record<string, unknown>, b: Record<string, unknown>) => compareAttributes('x', 'x.y', a, b, {}, noIgnore).diff;
  t.same(cmp({ port: '22', list: null, tags: {} }, { port: 22, list: [], tags: null }), [], 'string/number, null vs [] vs {}');
  t.same(cmp({ only_state: 'a' }, { only_live: 'b' }), [], 'attributes on one side only are not compared');
  t.same(cmp({ ids: ['b', 'a'] }, { ids: ['a', 'b', 'a'] }), [], 'scalar lists compare as sets');
  t.same(cmp({ tags: { A: '1' } }, { tags: { A: '1', B: '2' } }), [{ attribute: 'tags.B', before: null, after: '2' }], 'a tag added out of band');
  t.same(cmp({ v: [{ status: 'Enabled', extra: 1 }] }, { v: [{ status: 'Suspended' }] }),
    [{ attribute: 'v.0.status', before: 'Enabled', after: 'Suspended' }], 'nested blocks compared by path, keys both hold');
});

t.test('policy documents compare semantically', async (t) => {
  const a = { Version: '2012-10-17', Statement: { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::b/*', Principal: { AWS: 'arn:aws:iam::1:root' } } };
  const b = { Statement: [{ Principal: { AWS: ['arn:aws:iam::1:root'] }, Resource: ['arn:aws:s3:::b/*'], Action: ['S3:getobject'], Effect: 'Allow' }], Version: '2012-10-17' };
  t.ok(samePolicy(JSON.stringify(a), b), 'single values vs one-element arrays, key order, action case, statement as object');
  t.ok(samePolicy(encodeURIComponent(JSON.stringify(a)), JSON.stringify(b)), 'URL-encoded (as IAM returns) vs plain');
  const two = (x: string, y: string) => ({ Statement: [{ Effect: 'Allow', Action: x, Resource: '*' }, { Effect: 'Deny', Action: y, Resource: '*' }] });
  t.ok(samePolicy(two('a:b', 'c:d'), { Statement: [two('a:b', 'c:d').Statement[1], two('a:b', 'c:d').Statement[0]] }), 'statement order');
  t.notOk(samePolicy(two('a:b', 'c:d'), two('a:b', 'c:e')), 'a different action differs');
  t.notOk(samePolicy({ Statement: [{ Effect: 'Allow', Action: '*', Resource: 'arn:aws:s3:::B' }] }, { Statement: [{ Effect: 'Allow', Action: '*', Resource: 'arn:aws:s3:::b' }] }), 'resources are case-sensitive');
  t.same(normalizePolicy('not json'), 'not json', 'non-JSON text compares as text');
  const d = compareAttributes('aws_iam_policy', 'aws_iam_policy.p', { policy: JSON.stringify(a) }, { policy: JSON.stringify(b) }, { policies: ['policy'] }, noIgnore);
  t.same(d.diff, [], 'no diff through compareAttributes either');
});

t.test('security group rules compare as atoms', async (t) => {
  const owner = { id: 'sg-1' };
  const grouped = [{ protocol: 'tcp', from_port: 22, to_port: 22, cidr_blocks: ['10.0.0.0/8', '10.1.0.0/16'], description: 'x', self: false }];
  const split = [
    { protocol: '6', from_port: '22', to_port: '22', cidr_blocks: ['10.1.0.0/16'], description: 'x' },
    { protocol: 'tcp', from_port: 22, to_port: 22, cidr_blocks: ['10.0.0.0/8'], description: 'x', security_groups: [] },
  ];
  const spec = { sets: { ingress: ruleAtoms } };
  t.same(compareAttributes('aws_security_group', 'a', { ...owner, ingress: grouped }, { ingress: split }, spec, noIgnore).diff, [], 'grouping and protocol numbers do not matter');
  t.same(ruleAtoms({ protocol: 'all', from_port: 0, to_port: 65535, security_groups: ['123456789012/sg-1'] }, owner), ['-1|0|0|self|'], 'own group reference is self; -1 ignores ports');
  const opened = compareAttributes('aws_security_group', 'a', { ...owner, ingress: grouped }, { ingress: [...split, { protocol: 'tcp', from_port: 22, to_port: 22, cidr_blocks: ['0.0.0.0/0'] }] }, spec, noIgnore);
  t.equal(opened.diff.length, 1, 'a new source is a diff of the whole rule set');
  t.same(genericKey({ name: 'p', policy: '{"Statement":{"Action":"a:b"}}' }), genericKey({ policy: { Statement: [{ Action: ['A:B'] }] }, name: 'p' }), 'set elements with policies compare semantically');
});

t.test('ignore table and .driftignore', async (t) => {
  t.same(parseIgnoreFile('# comment\n\naws_instance.tags.LastSeen  # trailing\n  *.tags.Team\r\n'), ['aws_instance.tags.LastSeen', '*.tags.Team']);
  const rules = buildIgnoreRules(['aws_instance.*.tags.LastSeen', 'aws_s3_bucket.logs.tags', 'module.net["a"].aws_security_group.x.description'], IGNORED_ATTRIBUTES);
  t.ok(rules.ignores('aws_instance', 'aws_instance.web', 'public_ip'), 'built-in: computed instance attribute');
  t.ok(rules.ignores('aws_s3_bucket', 'aws_s3_bucket.b', 'tags_all.X'), 'built-in for every type: tags_all');
  t.ok(rules.ignores('aws_instance', 'aws_instance.web[0]', 'tags.LastSeen'), 'glob over addresses');
  t.ok(rules.ignores('aws_instance', 'module.m.aws_instance.web', 'tags.LastSeen'), '* spans module paths');
  t.notOk(rules.ignores('aws_instance', 'aws_instance.web', 'tags.Owner'), 'other tags still count');
  t.ok(rules.ignores('aws_s3_bucket', 'aws_s3_bucket.logs', 'tags.Anything'), 'a pattern covers everything under it');
  t.notOk(rules.ignores('aws_s3_bucket', 'aws_s3_bucket.logs2', 'tags.Anything'), 'but not a longer name');
  t.ok(rules.ignores('aws_security_group', 'module.net["a"].aws_security_group.x', 'description'), 'brackets are literal');
  const r = compareAttributes('aws_instance', 'aws_instance.web', { tags: { LastSeen: '1', Owner: 'a' } }, { tags: { LastSeen: '2', Owner: 'b' } }, {}, rules);
  t.same(r.diff, [{ attribute: 'tags.Owner', before: 'a', after: 'b' }], 'ignored attribute dropped from the diff');
  t.equal(r.ignored, 1, 'and counted');
});

t.test('severity table', async (t) => {
  const ids = SEVERITY_RULES.map((r) => r.id);
  t.equal(new Set(ids).size, ids.length, 'rule ids are unique');
  const c = (resourceType: string, diff: { attribute: string; before: unknown; after: unknown }[], changeType: 'changed' | 'deleted' = 'changed', state = {}) =>
    classify({ resourceType, changeType, diff }, state, SEVERITY_RULES);
  const world = [{ protocol: 'tcp', cidr_blocks: ['0.0.0.0/0'] }];
  t.same(c('aws_security_group', [{ attribute: 'ingress', before: [], after: world }]), { severity: 'critical', ruleId: 'sg-ingress-open-to-world' });
  t.same(c('aws_security_group', [{ attribute: 'ingress', before: world, after: [...world, { cidr_blocks: ['10.0.0.0/8'] }] }]), { severity: 'high', ruleId: 'sg-ingress-changed' }, 'already open before: not newly opened');
  t.same(c('aws_security_group', [{ attribute: 'egress', before: [], after: world }]), { severity: 'medium', ruleId: 'changed' }, 'egress to the world is the default');
  t.same(c('aws_security_group_rule', [{ attribute: 'cidr_blocks', before: ['10.0.0.0/8'], after: ['::/0'] }], 'changed', { type: 'ingress' }), { severity: 'critical', ruleId: 'sg-rule-ingress-open-to-world' });
  t.same(c('aws_security_group_rule', [{ attribute: 'cidr_blocks', before: ['10.0.0.0/8'], after: ['::/0'] }], 'changed', { type: 'egress' }), { severity: 'medium', ruleId: 'changed' }, 'where: egress rules are not ingress');
  t.same(c('aws_s3_bucket_public_access_block', [{ attribute: 'block_public_acls', before: true, after: false }]), { severity: 'critical', ruleId: 's3-public-access-block-loosened' });
  t.same(c('aws_s3_bucket_public_access_block', [], 'deleted'), { severity: 'critical', ruleId: 's3-public-access-block-removed' });
  t.same(c('aws_s3_bucket_server_side_encryption_configuration', [], 'deleted'), { severity: 'high', ruleId: 's3-encryption-removed' });
  t.same(c('aws_s3_bucket', [{ attribute: 'server_side_encryption_configuration', before: [{ rule: [] }], after: [] }]), { severity: 'high', ruleId: 's3-bucket-encryption-removed' });
  t.same(c('aws_s3_bucket_versioning', [{ attribute: 'versioning_configuration.0.status', before: 'Enabled', after: 'Suspended' }]), { severity: 'medium', ruleId: 's3-versioning-disabled' });
  t.same(c('aws_iam_role', [{ attribute: 'assume_role_policy', before: {}, after: {} }]), { severity: 'high', ruleId: 'iam-role-policy-changed' });
  t.same(c('aws_instance', [{ attribute: 'instance_type', before: 't3.micro', after: 't3.large' }]), { severity: 'medium', ruleId: 'instance-type-changed' });
  t.same(c('aws_instance', [{ attribute: 'tags.Env', before: 'a', after: 'b' }, { attribute: 'tags_all.Env', before: 'a', after: 'b' }]), { severity: 'low', ruleId: 'tags-only' });
  t.same(c('aws_instance', [{ attribute: 'tags.Env', before: 'a', after: 'b' }, { attribute: 'ami', before: 'x', after: 'y' }]), { severity: 'medium', ruleId: 'changed' }, 'tags plus something else is not tag-only');
  t.same(c('aws_instance', [], 'deleted'), { severity: 'high', ruleId: 'deleted' });
  t.same(c('aws_security_group', [{ attribute: 'ingress', before: [], after: world }, { attribute: 'tags.X', before: null, after: '1' }]), { severity: 'critical', ruleId: 'sg-ingress-open-to-world' }, 'first matching rule wins');
});

t.test('plan JSON (terraform show -json of a refresh-only plan) maps to the same records', async (t) => {
  // Recorded from terraform 1.11 + hashicorp/aws 5.100 against moto: SG opened and re-tagged,
  // versioning suspended, policy widened, one SG deleted; the bucket's `tags: null -> {}` is noise.
  const plan = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'refresh-only-plan.json'), 'utf8'));
  const out = mapResourceDrift(plan, buildIgnoreRules([], IGNORED_ATTRIBUTES));
  t.same(out.drifts.map((d) => [d.resourceAddress, d.changeType, d.severity, d.ruleId]), [
    ['aws_iam_policy.app', 'changed', 'high', 'iam-policy-changed'],
    ['aws_s3_bucket_versioning.data', 'changed', 'medium', 's3-versioning-disabled'],
    ['aws_security_group.gone', 'deleted', 'high', 'deleted'],
    ['aws_security_group.web', 'changed', 'critical', 'sg-ingress-open-to-world'],
  ], 'four drifts; the noise-only bucket entry is dropped');
  t.same(out.drifts[1].diff, [{ attribute: 'versioning_configuration.0.status', before: 'Enabled', after: 'Suspended' }]);
  t.same(out.drifts[3].diff.map((d) => d.attribute), ['ingress', 'tags.Env'], 'tags_all is ignored, tags kept');
  t.equal(out.resourcesScanned, 5, 'refreshed resources plus the deleted one');
  const ignoring = mapResourceDrift(plan, buildIgnoreRules(['aws_security_group.*.tags'], IGNORED_ATTRIBUTES));
  t.same(ignoring.drifts[3].diff.map((d) => d.attribute), ['ingress'], '.driftignore applies to the plan path too');
  t.same(mapResourceDrift({}, noIgnore), { drifts: [], resourcesScanned: 0, ignored: 0, compared: [] }, 'an empty document maps to nothing');
});

t.test('SDK errors map to actionable scan errors', async (t) => {
  const sdkError = (Cls: typeof S3ServiceException | typeof IAMServiceException, name: string, status: number) =>
    new Cls({ name, $fault: 'client', $metadata: { httpStatusCode: status }, message: name });
  for (const [name, status] of [['AccessDenied', 403], ['InvalidClientTokenId', 403], ['SignatureDoesNotMatch', 403], ['UnauthorizedOperation', 403], ['ExpiredToken', 400]] as const) {
    const e = toScanError(sdkError(S3ServiceException, name, status), 's3:GetObject');
    t.ok(e instanceof ScanError && e.code === 'access_denied', `${name} -> access_denied`);
    t.match((e as Error).message, /check that the credentials are valid and allow s3:GetObject/);
  }
  t.match(toScanError(sdkError(IAMServiceException, 'NoSuchEntity', 404), 'iam:GetRole'), { name: 'NoSuchEntity' }, 'other errors pass through unchanged');
  t.match(toScanError(Object.assign(new Error('x'), { name: 'TimeoutError' }), 'ec2:DescribeInstances'), { code: 'timeout' });
  t.match(toScanError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'ec2:DescribeInstances', { endpoint: 'http://127.0.0.1:1' }),
    { code: 'timeout', message: /could not be reached \(ECONNREFUSED\)/ });
  const ac = new AbortController();
  ac.abort(new DOMException('late', 'TimeoutError'));
  t.match(toScanError(Object.assign(new Error('aborted'), { name: 'AbortError' }), 'x', { signal: ac.signal }), { code: 'timeout', message: /time limit/ });
});

t.test('attributes managed by standalone resources are not compared on the parent', async (t) => {
  const { standaloneView } = await import('../../runner-agent/src/engine/standalone.ts');
  const { AWS_READERS } = await import('../../runner-agent/src/engine/cloud/aws/index.ts');
  const inst = (type: string, attributes: Record<string, unknown>) => ({ address: `${type}.x`, type, name: 'x', attributes });
  const group = inst('aws_security_group', { id: 'sg-1', ingress: [] }); // stale: written before the rule applied
  const rule = inst('aws_security_group_rule', { type: 'ingress', security_group_id: 'sg-1', protocol: 'tcp', from_port: 443, to_port: 443, cidr_blocks: ['10.1.0.0/16'], description: '' });
  const bucket = inst('aws_s3_bucket', { id: 'b', bucket: 'b', versioning: [{ enabled: false }], tags: {} });
  const view = standaloneView([group, rule, bucket, inst('aws_s3_bucket_versioning', { bucket: 'b' })]);
  const spec = AWS_READERS.aws_security_group.spec;
  const https = { protocol: 'tcp', from_port: 443, to_port: 443, cidr_blocks: ['10.1.0.0/16'], description: '' };
  t.same(compareAttributes('aws_security_group', 'g', view(group), { ingress: [https] }, spec, noIgnore).diff, [], 'the rule resource\'s rule is not drift of the group');
  const world = { protocol: 'tcp', from_port: 22, to_port: 22, cidr_blocks: ['0.0.0.0/0'], description: '' };
  t.equal(compareAttributes('aws_security_group', 'g', view(group), { ingress: [https, world] }, spec, noIgnore).diff.length, 1, 'an out-of-band rule still is');
  t.same(Object.keys(view(bucket)).sort(), ['bucket', 'id', 'tags'], 'the bucket\'s inline versioning is left to aws_s3_bucket_versioning');
  t.equal(view(inst('aws_s3_bucket', { bucket: 'other', versioning: [] })).versioning !== undefined, true, 'other buckets keep theirs');
});
