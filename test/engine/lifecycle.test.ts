// `lifecycle { ignore_changes }` of the declaring block, honoured per instance (root module,
// count, for_each, a local module; `all`, a map key `tags["x"]`, a whole `tags`, a nested
// `health_check[0].path`), and the shipped provider noise (noise.ts): an autoscaled
// desired_capacity or desired_count is no drift when the state shows what scales it, and is
// one when nothing does. The configuration is real HCL parsed as a scan parses it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { IGNORED_ATTRIBUTES } from '../../runner-agent/src/engine/catalogue.ts';
import { AwsContext } from '../../runner-agent/src/engine/cloud/aws/index.ts';
import { startFakeCloud, stateWorld } from '../../runner-agent/src/engine/cloud/aws/replay/server.ts';
import { compareLive } from '../../runner-agent/src/engine/compare.ts';
import { parseRootModule } from '../../runner-agent/src/engine/hcl.ts';
import { buildIgnoreRules } from '../../runner-agent/src/engine/ignore.ts';
import { parseIgnoreChanges, referencePath } from '../../runner-agent/src/engine/lifecycle.ts';
import { PROVIDER_NOISE } from '../../runner-agent/src/engine/noise.ts';
import { withRegions } from '../../runner-agent/src/engine/region.ts';
import { allAnswers } from '../../runner-agent/src/engine/replay.ts';
import type { StateInstance } from '../../runner-agent/src/engine/types.ts';

const repo = mkdtempSync(join(tmpdir(), 'drift-lifecycle-'));
t.teardown(() => rmSync(repo, { recursive: true, force: true }));
mkdirSync(join(repo, 'modules', 'svc'), { recursive: true });
writeFileSync(join(repo, 'main.tf'), `
provider "aws" {
  region = "us-east-1"
}
resource "aws_autoscaling_group" "web" {
  name     = "web"
  max_size = 4
  lifecycle {
    ignore_changes = [desired_capacity, tag]
  }
}
resource "aws_autoscaling_group" "plain" {
  name     = "plain"
  max_size = 4
}
resource "aws_instance" "fleet" {
  for_each = toset(["a", "b"])
  ami      = "ami-1"
  lifecycle {
    ignore_changes = all
  }
}
resource "aws_lb_target_group" "tg" {
  count = 2
  lifecycle {
    ignore_changes = [health_check[0].path, tags["Deployed"]]
  }
}
module "svc" {
  source = "./modules/svc"
}
`);
writeFileSync(join(repo, 'modules', 'svc', 'main.tf'), `
resource "aws_ecs_service" "api" {
  name          = "api"
  desired_count = 2
  lifecycle {
    ignore_changes = [desired_count]
  }
}
resource "aws_ecs_service" "worker" {
  name          = "worker"
  desired_count = 1
}
`);

const ACCT = '123456789012';
const CLUSTER = `arn:aws:ecs:us-east-1:${ACCT}:cluster/main`;
const i = (address: string, type: string, name: string, attributes: Record<string, unknown>, extra: Partial<StateInstance> = {}): StateInstance =>
  ({ address, type, name, attributes, ...extra });
const group = (name: string) => i(`aws_autoscaling_group.${name}`, 'aws_autoscaling_group', name, {
  id: name, name, arn: `arn:aws:autoscaling:us-east-1:${ACCT}:autoScalingGroup:1:autoScalingGroupName/${name}`, min_size: 1, max_size: 4, desired_capacity: 1,
  default_cooldown: 300, health_check_type: 'EC2', health_check_grace_period: 300, launch_configuration: 'lc', vpc_zone_identifier: ['subnet-1'],
  availability_zones: ['us-east-1a'], target_group_arns: [], load_balancers: [], termination_policies: [], max_instance_lifetime: 0, capacity_rebalance: false,
  protect_from_scale_in: false, tag: [{ key: 'Team', value: 'a', propagate_at_launch: true }],
});
const instance = (key: string) => i(`aws_instance.fleet["${key}"]`, 'aws_instance', 'fleet', {
  id: `i-0${key}`, arn: `arn:aws:ec2:us-east-1:${ACCT}:instance/i-0${key}`, ami: 'ami-1', instance_type: 't3.micro', availability_zone: 'us-east-1a', tenancy: 'default',
  key_name: '', subnet_id: 'subnet-1', private_ip: '10.0.0.1', vpc_security_group_ids: ['sg-1'], iam_instance_profile: '', monitoring: false, ebs_optimized: false,
  source_dest_check: true, tags: { Name: key },
}, { indexKey: key });
const tg = (n: number) => i(`aws_lb_target_group.tg[${n}]`, 'aws_lb_target_group', 'tg', {
  id: `arn:aws:elasticloadbalancing:us-east-1:${ACCT}:targetgroup/tg${n}/1`, arn: `arn:aws:elasticloadbalancing:us-east-1:${ACCT}:targetgroup/tg${n}/1`, name: `tg${n}`,
  port: 80, protocol: 'HTTP', vpc_id: 'vpc-1', target_type: 'ip', health_check: [{ enabled: true, path: '/', matcher: '200', port: 'traffic-port', protocol: 'HTTP' }],
  tags: { Deployed: 'v1', Team: 'a' },
}, { indexKey: n });
const service = (name: string) => i(`module.svc.aws_ecs_service.${name}`, 'aws_ecs_service', name, {
  id: `arn:aws:ecs:us-east-1:${ACCT}:service/main/${name}`, name, cluster: CLUSTER, desired_count: 2, launch_type: 'FARGATE', task_definition: 'td:1', tags: {},
}, { module: 'module.svc' });
const state = [group('web'), group('plain'), instance('a'), instance('b'), tg(0), tg(1), service('api'), service('worker')];

const edit = (x: StateInstance, a: Record<string, unknown>) => ({ ...x, attributes: { ...x.attributes, ...a } });
/** The cloud after a busy week: capacities scaled, tags stamped by a deploy, a health check path, every attribute of the fleet. */
const cloud = (s: StateInstance[]) => s.map((x) => {
  if (x.type === 'aws_autoscaling_group') return edit(x, { desired_capacity: 3, tag: [{ key: 'Team', value: 'b', propagate_at_launch: true }] });
  if (x.type === 'aws_instance') return edit(x, { instance_type: 't3.large', tags: { Name: 'changed' } });
  // Team changes on tg[0] only: what its block does not ignore is still found.
  if (x.type === 'aws_lb_target_group') return edit(x, { health_check: [{ enabled: true, path: '/healthz', matcher: '200', port: 'traffic-port', protocol: 'HTTP' }], tags: { Deployed: 'v2', Team: x.indexKey === 0 ? 'b' : 'a' } });
  if (x.type === 'aws_ecs_service') return edit(x, { desired_count: 5 });
  return x;
});

async function scan(world: StateInstance[], instances: StateInstance[]) {
  const module = await parseRootModule(repo, '');
  const entries = await withRegions([{ module, instances }], repo, 'us-east-1', () => true, {});
  const fake = await startFakeCloud(stateWorld(world), allAnswers());
  const aws = new AwsContext({ accessKeyId: 'r', secretAccessKey: 'r', region: 'us-east-1' }, 'us-east-1', fake.endpoint);
  try {
    const stats = { unsupported: {}, ignoredDiffs: 0 };
    const { drifts } = await compareLive(entries, aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), stats, { allInstances: instances });
    return { drifts: Object.fromEntries(drifts.map((d) => [d.resourceAddress, d.diff.map((x) => x.attribute)])), stats };
  } finally {
    aws.destroy();
    await fake.close();
  }
}

t.test('ignore_changes references as paths', async (t) => {
  t.same(parseIgnoreChanges('${all}'), 'all');
  t.same(parseIgnoreChanges(['*']), 'all', "0.11's [\"*\"]");
  t.same(parseIgnoreChanges(['${desired_capacity}', '${tags["a.b"]}', '${foo[0].bar}', 'tags']), ['desired_capacity', 'tags.a.b', 'foo.0.bar', 'tags']);
  t.equal(referencePath('${var.x[each.key]}'), undefined, 'an expression is no attribute reference');
  t.equal(parseIgnoreChanges([]), undefined);
});

t.test('each instance keeps what its own block ignores, and no more', async (t) => {
  const { drifts, stats } = await scan(cloud(state), state);
  t.same(drifts, {
    'aws_autoscaling_group.plain': ['desired_capacity', 'tag'],
    'aws_lb_target_group.tg[0]': ['tags.Team'],
    'module.svc.aws_ecs_service.worker': ['desired_count'],
  }, 'web ignores desired_capacity and its tag blocks, the fleet everything, tg[n] its health check path and one tag, the module\'s api its desired_count');
  t.ok(stats.ignoredDiffs >= 8, `${stats.ignoredDiffs} differences dropped`);
});

t.test('a deleted instance is reported even when its block ignores all', async (t) => {
  const { drifts } = await scan(state.filter((x) => x.address !== 'aws_instance.fleet["a"]'), state);
  t.same(drifts['aws_instance.fleet["a"]'], ['id']);
});

t.test('provider noise: an autoscaled capacity is no drift when the state shows what scales it', async (t) => {
  const policy = i('aws_autoscaling_policy.cpu', 'aws_autoscaling_policy', 'cpu', { id: 'cpu', name: 'cpu', autoscaling_group_name: 'plain', policy_type: 'TargetTrackingScaling' });
  const target = i('aws_appautoscaling_target.worker', 'aws_appautoscaling_target', 'worker', { id: 'service/main/worker', resource_id: 'service/main/worker', scalable_dimension: 'ecs:service:DesiredCount', service_namespace: 'ecs' });
  const scaled = [...state, policy, target];
  const { drifts } = await scan([...cloud(state), policy, target], scaled);
  t.same(drifts['aws_autoscaling_group.plain'], ['tag'], 'desired_capacity of a group a scaling policy manages is noise; its tag is not');
  t.notOk(drifts['module.svc.aws_ecs_service.worker'], 'desired_count of a service Application Auto Scaling scales is noise');
  t.ok(PROVIDER_NOISE.every((e) => e.why.length > 20), 'every catalogue entry says why it is noise');
});
