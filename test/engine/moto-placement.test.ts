// A real scan against moto, recorded by the service: each stored drift names the cloud id,
// provider, region, account, module, the resource block's file and line in the scanned commit,
// and the rule that rated it, for a security group, an instance, an S3 bucket and an IAM role.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuthorizeSecurityGroupIngressCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { UpdateAssumeRolePolicyCommand } from '@aws-sdk/client-iam';
import { PutBucketTaggingCommand } from '@aws-sdk/client-s3';
import { detectDrift } from '../../runner-agent/src/engine/index.ts';
import { toReportedDrifts } from '../../plugins/scans/scan-job.ts';
import { world as serviceWorld } from '../fixtures/world.ts';
import { CREDENTIALS, createWorld, git, REGION, TRUST_POLICY, type World } from './world.ts';

type Stored = { _id: string; resourceAddress: string; declaredIn: { file: string; line: number } | null };
const w: World = await createWorld();
t.teardown(() => w.cleanup());

/** The line of a resource block, read from the committed file here (not by the engine's code). */
const lineOf = (file: string, block: string) => readFileSync(join(w.repo, file), 'utf8').split('\n').findIndex((l) => l.startsWith(block)) + 1;

t.test('a scan against moto stores where each drifted resource lives and is declared', async (t) => {
  await w.c.ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: w.sgId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
  await w.c.ec2.send(new TerminateInstancesCommand({ InstanceIds: [w.instanceId] }));
  await w.c.s3.send(new PutBucketTaggingCommand({ Bucket: w.bucket, Tagging: { TagSet: [{ Key: 'Team', Value: 'ops' }] } }));
  const wider = { ...TRUST_POLICY, Statement: [{ ...TRUST_POLICY.Statement[0], Principal: { Service: ['ec2.amazonaws.com', 'lambda.amazonaws.com'] } }] };
  await w.c.iam.send(new UpdateAssumeRolePolicyCommand({ RoleName: w.roleName, PolicyDocument: JSON.stringify(wider) }));

  const out = await detectDrift({ source: { kind: 'git', url: w.repoUrl, branch: 'main' }, iacPaths: ['infra'], provider: 'cloud_a', credentials: CREDENTIALS, endpoint: w.c.endpoint });
  const head = git(w.repo, 'rev-parse', 'HEAD').trim();

  const s = await serviceWorld(t);
  const configId = await s.config('acme/infra');
  const scanId = await s.scanWith(configId, toReportedDrifts(out.drifts));
  const stored = Object.fromEntries(((await s.api('GET', `/api/drifts/scan/${scanId}`)).body.data as Stored[]).map((d) => [d.resourceAddress, d]));
  t.same(Object.keys(stored).sort(), ['aws_iam_role.app', 'aws_instance.web', 'aws_s3_bucket.data', 'aws_security_group.web'], 'the four changed resources');
  const main = 'infra/main.tf';
  const common = { provider: 'cloud_a', module: '', commit: head };

  t.match(stored['aws_security_group.web'], {
    ...common, resourceType: 'aws_security_group', ruleId: 'sg-ingress-open-to-world', severity: 'critical', resourceId: w.sgId, location: REGION,
    account: /^\d{12}$/, declaredIn: { file: main, line: lineOf(main, 'resource "aws_security_group" "web"') },
  }, 'the security group: its sg- id, the owner account, its block');
  t.match(stored['aws_instance.web'], {
    ...common, ruleId: 'deleted', resourceId: w.instanceId, location: REGION, account: '123456789012',
    declaredIn: { file: main, line: lineOf(main, 'resource "aws_instance" "web"') },
  }, 'the terminated instance: its i- id, the account of its ARN');
  t.match(stored['aws_s3_bucket.data'], {
    ...common, ruleId: 'tags-only', severity: 'low', resourceId: w.bucket, location: REGION, account: null,
    declaredIn: { file: main, line: lineOf(main, 'resource "aws_s3_bucket" "data"') },
  }, 'the bucket: its name; a bucket ARN names no account');
  t.match(stored['aws_iam_role.app'], {
    ...common, ruleId: 'iam-role-policy-changed', severity: 'high', resourceId: w.roleName, location: 'us-east-1', account: /^\d{12}$/,
    declaredIn: { file: main, line: lineOf(main, 'resource "aws_iam_role" "app"') },
  }, 'the IAM role: its name, the account of its ARN');
  t.ok(Object.values(stored).every((d) => (d.declaredIn?.line ?? 0) > 1), 'every line found');

  const sgView = stored['aws_security_group.web'];
  const one = (await s.api('GET', `/api/drifts/${sgView._id}`)).body.data;
  t.comment(JSON.stringify({ ...one, diff: '(omitted)' }));
  const byId = (await s.api('GET', `/api/drifts/query?resourceId=${w.sgId}`)).body.data as { _id: string }[];
  t.same(byId.map((d) => d._id), [sgView._id], 'found by its cloud id');
});
