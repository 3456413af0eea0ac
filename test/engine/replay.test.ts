// drift-runner replay: every state of the corpus replays with zero drifts (each one would be a
// false positive of the engine); the fake is no mirror that hides differences (a state compared
// against another state's fake drifts exactly where they differ); the CLI's output and errors.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import t from 'tap';
import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { AWS_READERS, AwsContext } from '../../runner-agent/src/engine/cloud/aws/index.ts';
import { startFakeCloud, stateWorld } from '../../runner-agent/src/engine/cloud/aws/replay/server.ts';
import { compareLive } from '../../runner-agent/src/engine/compare.ts';
import { buildIgnoreRules } from '../../runner-agent/src/engine/ignore.ts';
import { IGNORED_ATTRIBUTES } from '../../runner-agent/src/engine/catalogue.ts';
import { allAnswers, replayState } from '../../runner-agent/src/engine/replay.ts';
import { parseState } from '../../runner-agent/src/engine/state.ts';
import type { StateInstance } from '../../runner-agent/src/engine/types.ts';
import { replayMain } from '../../runner-agent/src/replay-cli.ts';

const CORPUS = join(import.meta.dirname, 'corpus');
const states = readdirSync(CORPUS).filter((f) => f.endsWith('.tfstate')).sort();

t.test('every corpus state replays with zero drifts', async (t) => {
  t.ok(states.length > 50, `${states.length} states in the corpus`);
  let compared = 0;
  for (const file of states) {
    // The configuration that wrote the state, when the corpus has it: the regions a scan resolves.
    const cfg = join(CORPUS, file.replace(/\.tfstate$/, ''));
    const config = existsSync(cfg) && statSync(cfg).isDirectory() ? cfg : undefined;
    const r = await replayState(readFileSync(join(CORPUS, file), 'utf8'), file, config ? { config } : {});
    compared += r.compared;
    t.same(r.drifts, [], `${file}: ${r.compared} compared, no drift`);
  }
  t.ok(compared >= 100, `${compared} resource instances compared in all`);
});

/** Instances of `stateB` compared against a fake cloud built from `stateA`. */
async function crossReplay(a: StateInstance[], b: StateInstance[]) {
  const fake = await startFakeCloud(stateWorld(a), allAnswers());
  const aws = new AwsContext({ accessKeyId: 'replay', secretAccessKey: 'replay', region: 'us-east-1' }, 'us-east-1', fake.endpoint);
  try {
    return await compareLive(b.map((instance) => ({ instance, region: 'us-east-1' })), aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
  } finally {
    aws.destroy();
    await fake.close();
  }
}

t.test('the fake answers what its state says: other values drift, missing resources are deleted', async (t) => {
  const base = ['driftctl-aws_subnet.tfstate', 'driftctl-aws_sqs_queue.tfstate', 'driftctl-aws_route53_record.tfstate', 'driftctl-aws_lambda_function.tfstate']
    .flatMap((f) => parseState(readFileSync(join(CORPUS, f), 'utf8'), f));
  const subnet = base.find((i) => i.type === 'aws_subnet')!;
  const queue = base.find((i) => i.type === 'aws_sqs_queue')!;
  const record = base.find((i) => i.type === 'aws_route53_record')!;
  const fn = base.find((i) => i.type === 'aws_lambda_function')!;
  // The cloud (state A): a subnet now public, a queue policy open to everyone, one record gone, a function's memory changed.
  const open = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Action: 'sqs:*', Resource: '*' }] });
  const cloud = base.filter((i) => i !== record).map((i) => (i === subnet ? { ...i, attributes: { ...i.attributes, map_public_ip_on_launch: true } }
    : i === queue ? { ...i, attributes: { ...i.attributes, policy: open } }
      : i === fn ? { ...i, attributes: { ...i.attributes, memory_size: 2048 } } : i));
  const { drifts, compared } = await crossReplay(cloud, base);
  t.equal(compared, base.filter((i) => AWS_READERS[i.type]).length, 'every instance of a supported type compared');
  const by = Object.fromEntries(drifts.map((d) => [d.resourceAddress, d]));
  t.match(by[subnet.address], { changeType: 'changed', ruleId: 'subnet-public-ip-on-launch', diff: [{ attribute: 'map_public_ip_on_launch', after: true }] });
  t.match(by[queue.address], { severity: 'critical', ruleId: 'queue-topic-policy-public' });
  t.match(by[record.address], { changeType: 'deleted' }, 'a record the zone no longer lists is deleted, through the reader\'s normal not-found path');
  t.match(by[fn.address], { changeType: 'changed', diff: [{ attribute: 'memory_size', after: 2048 }] });
  t.equal(drifts.length, 4, 'and nothing else drifts');
});

t.test('routes an aws_route manages are compared on the route, not on its table\'s stale copy', async (t) => {
  const table = { address: 'aws_route_table.a', type: 'aws_route_table', name: 'a', attributes: { id: 'rtb-1', vpc_id: 'vpc-1', route: [], propagating_vgws: [], tags: {} } };
  const route = { address: 'aws_route.r', type: 'aws_route', name: 'r', attributes: { id: 'r-rtb-11', route_table_id: 'rtb-1', destination_cidr_block: '0.0.0.0/0', gateway_id: 'igw-1' } };
  // The cloud has the route (the fake's table is the union); the table's state copy predates it.
  const clean = await crossReplay([table, route], [table, route]);
  t.same(clean.drifts, [], 'no drift on the table for a route its aws_route manages');
  const withoutRoute = await crossReplay([table, route], [table]);
  t.match(withoutRoute.drifts, [{ resourceAddress: 'aws_route_table.a', severity: 'critical', ruleId: 'route-world-via-igw' }],
    'without the aws_route in the state, the same route is an out-of-band route to the world through an IGW');
});

t.test('the provider\'s spellings of "none" replay clean', async (t) => {
  const fn = { address: 'aws_lambda_function.f', type: 'aws_lambda_function', name: 'f', attributes: {
    function_name: 'f', role: 'arn:aws:iam::1:role/r', handler: 'index.handler', runtime: 'nodejs20.x', memory_size: 128, timeout: 3,
    // Provider 5.x keeps one element of empty lists for "no VPC"; 4.x kept [].
    vpc_config: [{ ipv6_allowed_for_dual_stack: false, security_group_ids: [], subnet_ids: [], vpc_id: '' }], environment: [], tags: {},
  } };
  const old = { ...fn, address: 'aws_lambda_function.g', name: 'g', attributes: { ...fn.attributes, function_name: 'g', vpc_config: [] } };
  const out = await crossReplay([fn, old], [fn, old]);
  t.equal(out.compared, 2);
  t.same(out.drifts, [], 'no VPC either way');
});

t.test('an operation no reader answers fails loudly, naming it', async (t) => {
  const fake = await startFakeCloud(stateWorld([]), allAnswers().filter((a) => a.op[2] !== 'DescribeVpcs'));
  const ec2 = new EC2Client({ endpoint: fake.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 });
  try {
    await t.rejects(ec2.send(new DescribeVpcsCommand({ VpcIds: ['vpc-1'] })), { name: 'NotImplemented', message: /no answer for ec2 POST/ });
  } finally {
    ec2.destroy();
    await fake.close();
  }
});

function sink() {
  let text = '';
  const stream = new Writable({ write(chunk, _enc, cb) { text += String(chunk); cb(); } });
  return { stream, text: () => text };
}

t.test('drift-runner replay: --json prints one document; errors are clear', async (t) => {
  const out = sink();
  const err = sink();
  t.equal(await replayMain([join(CORPUS, 'driftctl-aws_vpc.tfstate'), '--json'], out.stream, err.stream), 0, 'exit 0: no drift');
  const doc = JSON.parse(out.text()) as { compared: number; drifts: unknown[] };
  t.same(Object.keys(doc).sort(), ['compared', 'drifts'], '{compared, drifts}');
  t.ok(doc.compared > 0, `${doc.compared} compared`);
  t.same(doc.drifts, []);

  const human = sink();
  t.equal(await replayMain([join(CORPUS, 'driftctl-aws_vpc.tfstate')], human.stream, err.stream), 0);
  t.match(human.text(), /resource instances compared against a replay of .*; 0 false drift\(s\)/);

  const e1 = sink();
  t.equal(await replayMain([join(CORPUS, 'no-such.tfstate')], sink().stream, e1.stream), 2, 'a missing file exits 2');
  t.match(e1.text(), /cannot read .*no-such\.tfstate: ENOENT/);
  const e2 = sink();
  t.equal(await replayMain([join(CORPUS, 'malformed', 'driftctl-v4-invalid.tfstate')], sink().stream, e2.stream), 2, 'a malformed state exits 2');
  t.match(e2.text(), /parse_error: The state at .* is not valid JSON/);
  const e3 = sink();
  t.equal(await replayMain([], sink().stream, e3.stream), 2, 'no file: usage');
  t.match(e3.text(), /Usage: drift-runner replay <state file>/);
});
