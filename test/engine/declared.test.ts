// Where a state instance is declared (where.ts through region.ts withRegions): the resource
// block's file and line for a root-module resource, an instance of a `count` and of a
// `for_each` resource, a resource in a local module (also a .tf.json one), and null for a
// registry module; the cloud id, account and module path beside it.
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRootModule } from '../../runner-agent/src/engine/hcl.ts';
import { withRegions } from '../../runner-agent/src/engine/region.ts';
import type { StateInstance } from '../../runner-agent/src/engine/types.ts';
import { accountOf, blockLine, placementOf, resourceIdOf } from '../../runner-agent/src/engine/where.ts';

const repo = mkdtempSync(join(tmpdir(), 'drift-declared-'));
t.teardown(() => rmSync(repo, { recursive: true, force: true }));
mkdirSync(join(repo, 'infra', 'modules', 'net'), { recursive: true });
mkdirSync(join(repo, 'infra', 'modules', 'store'), { recursive: true });
writeFileSync(join(repo, 'infra', 'main.tf'), [
  'provider "aws" {', '  region = "eu-west-1"', '}', '',                          // 1-4
  '# resource "aws_security_group" "web" { (a comment is not the block)',          // 5
  'resource "aws_security_group" "web" {', '  name = "web"', '}', '',             // 6-9
  'resource  "aws_instance"   "app"  {', '  count = 2', '}', '',                  // 10-13
  'module "net" {', '  source = "./modules/net"', '}',                              // 14-16
  'module "store" {', '  source   = "./modules/store"', '  for_each = toset(["a"])', '}', // 17-20
  'module "vpc" {', '  source  = "terraform-aws-modules/vpc/aws"', '  version = "5.0.0"', '}', // 21-24
].join('\n'));
writeFileSync(join(repo, 'infra', 'buckets.tf'), [
  'resource "aws_s3_bucket" "logs" {', '  for_each = toset(["a", "b"])', '  bucket   = "logs-${each.key}"', '}', '',
  'resource "aws_iam_role" "app" {', '  name = "app"', '  assume_role_policy = "{}"', '}',
].join('\n'));
writeFileSync(join(repo, 'infra', 'modules', 'net', 'main.tf'), 'variable "x" {\n  default = 1\n}\n\nresource "aws_security_group" "extra" {\n  name = "extra"\n}\n');
writeFileSync(join(repo, 'infra', 'modules', 'store', 'main.tf.json'), JSON.stringify({ resource: { aws_s3_bucket: { data: { bucket: 'data' } } } }, null, 2));

const inst = (address: string, type: string, name: string, attributes: Record<string, unknown>, extra: Partial<StateInstance> = {}): StateInstance =>
  ({ address, type, name, attributes, ...extra });
const instances = [
  inst('aws_security_group.web', 'aws_security_group', 'web', { id: 'sg-0abc', arn: 'arn:aws:ec2:eu-west-1:123456789012:security-group/sg-0abc', owner_id: '123456789012' }),
  inst('aws_instance.app[1]', 'aws_instance', 'app', { id: 'i-1', arn: 'arn:aws:ec2:eu-west-1:210987654321:instance/i-1' }, { indexKey: 1 }),
  inst('aws_s3_bucket.logs["b"]', 'aws_s3_bucket', 'logs', { id: 'logs-b', bucket: 'logs-b', arn: 'arn:aws:s3:::logs-b' }, { indexKey: 'b' }),
  inst('aws_iam_role.app', 'aws_iam_role', 'app', { id: 'app', name: 'app', arn: 'arn:aws:iam::123456789012:role/app' }),
  inst('module.net.aws_security_group.extra', 'aws_security_group', 'extra', { id: 'sg-0def', owner_id: '123456789012' }, { module: 'module.net' }),
  inst('module.store["a"].aws_s3_bucket.data', 'aws_s3_bucket', 'data', { id: 'data', bucket: 'data' }, { module: 'module.store["a"]' }),
  inst('module.vpc.aws_vpc.this[0]', 'aws_vpc', 'this', { id: 'vpc-1', owner_id: '123456789012' }, { module: 'module.vpc', indexKey: 0 }),
];

t.test('declaredIn, resourceId, account, module and location of each instance', async (t) => {
  const root = await parseRootModule(repo, 'infra');
  const entries = await withRegions([{ module: root, instances }], repo, 'eu-west-1', () => true, {});
  const at = Object.fromEntries(entries.map((e) => [e.instance.address, placementOf(e.instance, e.region, e.declaredIn)]));
  t.same(at['aws_security_group.web'], {
    resourceId: 'sg-0abc', location: 'eu-west-1', account: '123456789012', module: '', declaredIn: { file: 'infra/main.tf', line: 6 },
  }, 'a root-module resource: its block, not the comment above it');
  t.same(at['aws_instance.app[1]'].declaredIn, { file: 'infra/main.tf', line: 10 }, 'an instance of a count resource: the one block (extra spaces allowed)');
  t.same(at['aws_instance.app[1]'].account, '210987654321', 'the account its ARN names');
  t.same(at['aws_s3_bucket.logs["b"]'], {
    resourceId: 'logs-b', location: 'eu-west-1', account: null, module: '', declaredIn: { file: 'infra/buckets.tf', line: 1 },
  }, 'an instance of a for_each resource, in another file; a bucket ARN names no account');
  t.same(at['aws_iam_role.app'], {
    resourceId: 'app', location: 'eu-west-1', account: '123456789012', module: '', declaredIn: { file: 'infra/buckets.tf', line: 6 },
  }, 'an IAM role: its name is its id');
  t.same(at['module.net.aws_security_group.extra'].declaredIn, { file: 'infra/modules/net/main.tf', line: 5 }, 'a resource in a local module: the block inside the module');
  t.same(at['module.net.aws_security_group.extra'].module, 'module.net');
  t.same(at['module.store["a"].aws_s3_bucket.data'], {
    resourceId: 'data', location: 'eu-west-1', account: null, module: 'module.store', declaredIn: { file: 'infra/modules/store/main.tf.json', line: 4 },
  }, 'an instance of a for_each module, declared in .tf.json: instance keys stripped from the module path');
  t.same(at['module.vpc.aws_vpc.this[0]'].declaredIn, null, 'a registry module: null');
  t.same(at['module.vpc.aws_vpc.this[0]'].module, 'module.vpc', 'its module path is still known');
});

t.test('the pieces on their own', async (t) => {
  t.equal(resourceIdOf({ arn: 'arn:aws:iam::123456789012:role/x', name: 'x' }), 'arn:aws:iam::123456789012:role/x', 'no id: the ARN');
  t.equal(resourceIdOf({ bucket: 'b' }), 'b', 'no id nor ARN: the bucket');
  t.equal(resourceIdOf({}), null, 'nothing: null');
  t.equal(accountOf({ arn: 'arn:aws-us-gov:ec2:us-gov-west-1:123456789012:instance/i-1' }), '123456789012', 'another partition');
  t.equal(accountOf({ owner_id: 'amazon' }), null, 'an owner that is not an account id: null');
  t.equal(blockLine('\n\nresource aws_vpc main {\n}', 'aws_vpc', 'main', false), 3, 'unquoted labels');
  t.equal(blockLine('resource "aws_vpc" "main2" {}', 'aws_vpc', 'main', false), undefined, 'another name: no match');
});
