// Regions and false drift against moto: each resource read in the region its provider, variables,
// ARN or credentials give; a resource the configuration places elsewhere than where it lives is
// found in its ARN's region, not reported deleted; an instance of unknown region is counted, not
// compared; tags compare as tags_all (default_tags); sensitive values never reach a drift.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { CreateSecurityGroupCommand, CreateTagsCommand, EC2Client, type SecurityGroup } from '@aws-sdk/client-ec2';
import { renderPermissions } from '../../runner-agent/src/engine/cloud/aws/vpc/security-group-rules.ts';
import { detectDrift, type ScanInput } from '../../runner-agent/src/engine/index.ts';
import { CREDENTIALS, describeGroup, motoUrl } from './world.ts';
import type { Clients } from './world.ts';

const endpoint = motoUrl();
const suffix = `${Date.now().toString(36)}${process.pid}`;
const ec2 = (region: string) => new EC2Client({ endpoint, region, credentials: CREDENTIALS });

/** A security group created in `region`, with `tags`, and its state attributes as the provider writes them. */
async function group(region: string, name: string, tags: Record<string, string>): Promise<Record<string, unknown>> {
  const client = ec2(region);
  const id = (await client.send(new CreateSecurityGroupCommand({
    GroupName: `${name}-${suffix}`, Description: name,
    ...(Object.keys(tags).length ? { TagSpecifications: [{ ResourceType: 'security-group', Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) }] } : {}),
  }))).GroupId!;
  const g: SecurityGroup = await describeGroup({ ec2: client } as unknown as Clients, id);
  client.destroy();
  return {
    arn: `arn:aws:ec2:${region}:123456789012:security-group/${id}`, description: name, id, name: g.GroupName, name_prefix: '',
    owner_id: g.OwnerId, revoke_rules_on_delete: false, vpc_id: g.VpcId, tags: {}, tags_all: {}, timeouts: null,
    ingress: [], egress: renderPermissions(g.IpPermissionsEgress, id),
  };
}

const AWS = 'provider["registry.terraform.io/hashicorp/aws"]';
const resource = (name: string, provider: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}, module?: string) => ({
  ...(module ? { module } : {}), mode: 'managed', type: 'aws_security_group', name, provider,
  instances: [{ schema_version: 1, attributes, sensitive_attributes: [], ...extra }],
});

const dirs: string[] = [];
t.teardown(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'drift-regions-'));
  dirs.push(dir);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}
const scan = (dir: string, region = 'us-east-1') => detectDrift({
  source: { kind: 'path', path: dir }, iacPaths: [], provider: 'cloud_a', credentials: { ...CREDENTIALS, region }, endpoint,
} satisfies ScanInput);

t.test('regions from variables, tfvars, locals, module-local and legacy providers; a moved configuration', async (t) => {
  const main = await group('eu-central-1', 'main', { Name: 'main', Stack: 'regions' });
  const dr = await group('ap-southeast-2', 'dr', { Name: 'dr' });
  const replica = await group('ca-central-1', 'replica', { Name: 'replica' });
  const legacy = await group('us-west-2', 'legacy', {});
  const moved = await group('eu-west-3', 'moved', {});
  // The provider's default_tags are in tags_all only, as the provider writes them.
  Object.assign(main, { tags: { Name: 'main' }, tags_all: { Name: 'main', Stack: 'regions' } });
  dr.tags = dr.tags_all = { Name: 'dr' };
  replica.tags = replica.tags_all = { Name: 'replica' };
  const state = {
    version: 4, terraform_version: '1.5.7', serial: 1, lineage: suffix, outputs: {}, resources: [
      resource('main', AWS, main),
      resource('dr', `${AWS}.dr`, dr),
      resource('replica', `module.replica.${AWS}.west`, replica, {}, 'module.replica'),
      resource('legacy', 'provider.aws.oregon', legacy),
      // The configuration now says us-east-1 for this alias; the group still lives in eu-west-3.
      resource('moved', `${AWS}.moved`, moved),
    ],
  };
  const dir = folder({
    'main.tf': [
      'variable "region" {\n  default = "us-west-1"\n}', 'locals {\n  dr = "ap-southeast-2"\n}',
      'provider "aws" {\n  region = var.region\n  default_tags {\n    tags = { Stack = "regions" }\n  }\n}',
      'provider "aws" {\n  alias  = "dr"\n  region = local.dr\n}', 'provider "aws" {\n  alias  = "oregon"\n  region = "us-west-2"\n}',
      'provider "aws" {\n  alias  = "moved"\n  region = "us-east-1"\n}', 'module "replica" {\n  source = "./modules/replica"\n  region = "ca-central-1"\n}',
    ].join('\n'),
    'terraform.tfvars': 'region = "eu-central-1"\n',
    'modules/replica/main.tofu': 'variable "region" {}\nprovider "aws" {\n  alias  = "west"\n  region = var.region\n}\n',
    'terraform.tfstate': JSON.stringify(state),
  });
  const out = await scan(dir, 'us-east-1');
  t.same(out.drifts, [], 'every group found where it lives, default tags included: no drift');
  t.equal(out.resourcesScanned, 5);
  t.same(out.stats.regionSources, { variable: 3, provider: 2 }, 'var (tfvars), local and module argument; two literal aliases');
  t.same(out.stats.foundInArnRegion, ['aws_security_group.moved'], 'the moved group was found in its ARN\'s region');
});

t.test('a region that cannot be determined is counted, never a deletion', async (t) => {
  const rule = {
    id: 'sgrule-1', security_group_id: 'sg-0123456789abcdef0', type: 'ingress', protocol: 'tcp', from_port: 22, to_port: 22,
    cidr_blocks: ['10.0.0.0/8'], self: false,
  };
  const state = { version: 4, serial: 1, lineage: suffix, resources: [
    { mode: 'managed', type: 'aws_security_group_rule', name: 'r', provider: 'provider.aws', instances: [{ schema_version: 2, attributes: rule }] },
    // Upgraded from Terraform 0.11: decoded, and named in the stats.
    { mode: 'managed', type: 'aws_security_group_rule', name: 'old', provider: 'provider.aws', instances: [{ schema_version: 2, attributes_flat: {
      id: 'sgrule-2', security_group_id: 'sg-0123456789abcdef0', type: 'ingress', protocol: 'tcp', from_port: '80', to_port: '80', 'cidr_blocks.#': '1', 'cidr_blocks.0': '10.0.0.0/8',
    } }] },
  ] };
  const dir = folder({ 'main.tf': 'provider "aws" {\n  region = var.region\n}\nvariable "region" {}\n', 'terraform.tfstate': JSON.stringify(state) });
  const out = await scan(dir, '');
  t.same(out.drifts, [], 'no deletion reported');
  t.equal(out.resourcesScanned, 0);
  t.same(out.stats.regionUnknown, { aws_security_group_rule: 2 }, 'the scan says which type lacked a region');
  t.same(out.stats.flatInstances, { count: 1, addresses: ['aws_security_group_rule.old'] });
});

t.test('sensitive attributes are compared by hash and never shown', async (t) => {
  const g = await group('eu-west-1', 'secret', { Name: 'secret', Token: 'hunter2' });
  g.tags = g.tags_all = { Name: 'secret', Token: 'hunter2' };
  const state = { version: 4, serial: 1, lineage: suffix, resources: [
    resource('secret', AWS, g, { sensitive_attributes: [[{ type: 'get_attr', value: 'tags' }, { type: 'index', value: { value: 'Token', type: 'string' } }]] }),
  ] };
  const dir = folder({ 'main.tf': 'provider "aws" {\n  region = "eu-west-1"\n}\n', 'terraform.tfstate': JSON.stringify(state) });
  t.same((await scan(dir)).drifts, [], 'an equal sensitive value is no drift');
  const client = ec2('eu-west-1');
  await client.send(new CreateTagsCommand({ Resources: [g.id as string], Tags: [{ Key: 'Token', Value: 'swordfish' }] }));
  client.destroy();
  const out = await scan(dir);
  t.match(out.drifts, [{ resourceAddress: 'aws_security_group.secret', changeType: 'changed',
    diff: [{ attribute: 'tags.Token', before: '(sensitive value changed)', after: '(sensitive value changed)' }] }], 'the change shows, its values do not');
  t.notMatch(JSON.stringify(out), /hunter2|swordfish/, 'neither value anywhere in the outcome');
});

t.test('drift-runner coverage reads an s3:// state', async (t) => {
  const { S3Client, CreateBucketCommand, PutObjectCommand } = await import('@aws-sdk/client-s3');
  const { coverageMain } = await import('../../runner-agent/src/coverage-cli.ts');
  const { PassThrough } = await import('node:stream');
  const s3 = new S3Client({ endpoint, region: 'us-east-1', credentials: CREDENTIALS, forcePathStyle: true });
  const bucket = `coverage-${suffix}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'env/prod.tfstate', Body: JSON.stringify({ version: 4, resources: [
    resource('a', AWS, { id: 'sg-1', arn: 'arn:aws:ec2:eu-west-1:123456789012:security-group/sg-1' }),
    { mode: 'managed', type: 'random_id', name: 'r', provider: 'provider["registry.terraform.io/hashicorp/random"]', instances: [{ attributes: { id: 'x' } }] },
  ] }) }));
  s3.destroy();
  // The SDK's default credential chain reads the process environment.
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  t.teardown(() => {
    for (const [k, v] of [['AWS_ACCESS_KEY_ID', saved.id], ['AWS_SECRET_ACCESS_KEY', saved.secret]] as const) {
      if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
  });
  const out = new PassThrough();
  let text = '';
  out.on('data', (c) => { text += c; });
  const code = await coverageMain(['--json', `s3://${bucket}/env/prod.tfstate`, '--endpoint', endpoint], {}, out, new PassThrough());
  t.equal(code, 0);
  t.same(JSON.parse(text), {
    total: 1, compared: 1, percent: 100, byType: { aws_security_group: { total: 1, compared: 1 } }, other: 1,
    providers: { aws: { total: 1, compared: 1, percent: 100 }, azurerm: { total: 0, compared: 0, percent: 100 }, google: { total: 0, compared: 0, percent: 100 } },
    byProvider: { aws: { total: 1, native: 1, plan: 0, planTypes: {} }, random: { total: 1, native: 0, plan: 1, planTypes: { random_id: 1 } } },
  });
});

t.test('a deletion in a region only the credentials gave is reported, and the stats say so', async (t) => {
  const state = { version: 4, serial: 1, lineage: suffix, resources: [
    resource('gone', 'provider.aws', { id: 'sg-0fffffffffffffff0', name: 'gone', description: 'gone', ingress: [], egress: [] }),
  ] };
  const dir = folder({ 'main.tf': 'provider "aws" {}\n', 'terraform.tfstate': JSON.stringify(state) });
  const out = await scan(dir, 'eu-north-1');
  t.match(out.drifts, [{ resourceAddress: 'aws_security_group.gone', changeType: 'deleted' }]);
  t.same(out.stats.regionSources, { credentials: 1 });
  t.same(out.stats.deletedInAssumedRegion, ['aws_security_group.gone (eu-north-1, from credentials)']);
});
