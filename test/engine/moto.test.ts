// The detection engine against real resources in moto: no drift, then out-of-band changes with
// their exact drifts, severities and diffs, an ignore file, then the changes undone.
import t from 'tap';
import {
  AuthorizeSecurityGroupIngressCommand, CreateTagsCommand, RevokeSecurityGroupIngressCommand, TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { CreatePolicyVersionCommand, SetDefaultPolicyVersionCommand } from '@aws-sdk/client-iam';
import { PutBucketVersioningCommand } from '@aws-sdk/client-s3';
import { detectDrift, type DetectedDrift, type ScanInput } from '../../runner-agent/src/engine/index.ts';
import { APP_POLICY, buildState, commitFile, CREDENTIALS, createWorld, launchInstance, putState, type World } from './world.ts';

const w: World = await createWorld();
t.teardown(() => w.cleanup());

const input = (over: Partial<ScanInput> = {}): ScanInput => ({
  source: { kind: 'git', url: w.repoUrl, branch: 'main' },
  iacPaths: ['infra'], provider: 'cloud_a', credentials: CREDENTIALS, endpoint: w.c.endpoint, ...over,
});
const byAddress = (drifts: DetectedDrift[]) => Object.fromEntries(drifts.map((d) => [d.resourceAddress, d]));

t.test('a state that matches the cloud has no drift', async (t) => {
  const phases = new Set<string>();
  const out = await detectDrift(input({ onProgress: (p) => phases.add(p.phase) }));
  t.same(out.drifts, [], 'no drift records');
  t.equal(out.resourcesScanned, 11, 'every managed instance of a supported type was compared (the trail is not)');
  t.same(out.stats.unsupported, { aws_cloudtrail: 1 }, 'the unsupported type is counted, the data source is not');
  t.match(out.stats.roots, [{ path: 'infra', state: `s3://${w.stateBucket}/${w.stateKey} (backend "s3")`, resources: 12 }], 'the state came from the s3 backend');
  t.match(out.stats.commit, /^[0-9a-f]{40}$/, 'the scanned commit is recorded');
  t.ok(out.stats.ignoredDiffs > 0, 'computed attributes (public_dns, cpu counts...) were ignored, not reported');
  t.ok(out.stats.sdkCalls > 0 && out.stats.sdkCallsByService.ec2 <= 3, `EC2 reads are batched (${out.stats.sdkCallsByService.ec2} calls)`);
  t.same([...phases], ['source', 'parse', 'state', 'compare'], 'progress is reported per phase');
});

t.test('out-of-band changes are reported with severities and diffs', async (t) => {
  await w.c.ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: w.sgId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
  await w.c.s3.send(new PutBucketVersioningCommand({ Bucket: w.bucket, VersioningConfiguration: { Status: 'Suspended' } }));
  await w.c.ec2.send(new TerminateInstancesCommand({ InstanceIds: [w.instanceId] }));
  await w.c.ec2.send(new CreateTagsCommand({ Resources: [w.extraSgId], Tags: [{ Key: 'Env', Value: 'dev' }] }));
  const wider = { ...APP_POLICY, Statement: [{ ...APP_POLICY.Statement[0], Action: ['s3:GetObject', 's3:DeleteObject'] }] };
  await w.c.iam.send(new CreatePolicyVersionCommand({ PolicyArn: w.policyArn, PolicyDocument: JSON.stringify(wider), SetAsDefault: true }));

  const out = await detectDrift(input());
  const d = byAddress(out.drifts);
  t.same(Object.keys(d).sort(), [
    'aws_iam_policy.app', 'aws_instance.web', 'aws_s3_bucket_versioning.data', 'aws_security_group.web',
    'module.net["a"].aws_security_group.extra["a"]',
  ], 'exactly the changed resources drift');

  const sg = d['aws_security_group.web'];
  t.match(sg, { resourceType: 'aws_security_group', changeType: 'changed', severity: 'critical', ruleId: 'sg-ingress-open-to-world' }, 'SG opened to the world is critical');
  t.equal(sg.diff.length, 1, 'one attribute differs');
  t.equal(sg.diff[0].attribute, 'ingress', 'the ingress rules');
  t.notOk(JSON.stringify(sg.diff[0].before).includes('0.0.0.0/0'), 'before: not open');
  const after = sg.diff[0].after as { cidr_blocks: string[]; from_port: number; protocol: string }[];
  t.ok(after.some((r) => r.cidr_blocks.includes('0.0.0.0/0') && r.from_port === 22 && r.protocol === 'tcp'), 'after: the world on port 22');
  t.equal(after.length, 3, 'after: the two existing rules are still listed');

  t.match(d['aws_s3_bucket_versioning.data'], {
    changeType: 'changed', severity: 'medium', ruleId: 's3-versioning-disabled',
    diff: [{ attribute: 'versioning_configuration.0.status', before: 'Enabled', after: 'Suspended' }],
  }, 'versioning suspended on the versioning resource');
  t.notOk(d['aws_s3_bucket.data'], 'not twice: the bucket\'s inline versioning is left to the standalone resource');

  t.match(d['aws_instance.web'], { changeType: 'deleted', severity: 'high', ruleId: 'deleted', diff: [{ attribute: 'id', before: w.instanceId, after: null }] }, 'terminated instance is deleted');

  t.match(d['module.net["a"].aws_security_group.extra["a"]'], {
    changeType: 'changed', severity: 'low', ruleId: 'tags-only', diff: [{ attribute: 'tags.Env', before: 'prod', after: 'dev' }],
  }, 'a tag-only change is low, with a module path and index key in the address');

  const pol = d['aws_iam_policy.app'];
  t.match(pol, { changeType: 'changed', severity: 'high', ruleId: 'iam-policy-changed' }, 'IAM policy change is high');
  t.equal(pol.diff.length, 1);
  t.match(pol.diff[0], { attribute: 'policy', before: { Statement: [{ Action: ['s3:getobject'] }] }, after: { Statement: [{ Action: ['s3:deleteobject', 's3:getobject'] }] } }, 'diff shows the parsed documents');

  t.test('the security-group rule resource and the rest of the state stay clean', async (t) => {
    t.notOk(d['aws_security_group_rule.https'], 'the 443 rule is still there');
    t.notOk(d['aws_s3_bucket_public_access_block.data'] || d['aws_iam_role.app'], 'untouched resources do not drift');
  });
});

t.test('.driftignore suppresses the tag drift', async (t) => {
  commitFile(w.repo, '.driftignore', '# tags the platform team edits by hand\nmodule.net*.tags.Env\n');
  const out = await detectDrift(input());
  t.notOk(out.drifts.some((x) => x.resourceAddress.startsWith('module.net')), 'the tag drift is gone');
  t.equal(out.drifts.length, 4, 'the other drifts remain');
  t.equal(out.stats.ignorePatterns, 1, 'one pattern read');
});

t.test('undoing the changes resolves every drift', async (t) => {
  await w.c.ec2.send(new RevokeSecurityGroupIngressCommand({ GroupId: w.sgId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
  await w.c.s3.send(new PutBucketVersioningCommand({ Bucket: w.bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  await w.c.ec2.send(new CreateTagsCommand({ Resources: [w.extraSgId], Tags: [{ Key: 'Env', Value: 'prod' }] }));
  await w.c.iam.send(new SetDefaultPolicyVersionCommand({ PolicyArn: w.policyArn, VersionId: 'v1' }));
  // A terminated instance cannot come back: re-create it and record it in the state, as an apply would.
  w.instanceId = await launchInstance(w.c, w.ami, w.sgId, w.suffix);
  await putState(w, await buildState(w, 2));
  const out = await detectDrift(input());
  t.same(out.drifts, [], 'no drift left');
});
