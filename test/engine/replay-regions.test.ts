// drift-runner replay resolves regions as a scan does (region.ts withRegions over the
// configuration given with --config) and its fake is regional: two provider aliases placing
// instances in two regions are each read where their own alias places them, and a read in
// the wrong region finds nothing (the fake is no mirror that answers every region alike).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import t from 'tap';
import { IGNORED_ATTRIBUTES } from '../../runner-agent/src/engine/catalogue.ts';
import { AwsContext } from '../../runner-agent/src/engine/cloud/aws/index.ts';
import { startFakeCloud, stateWorld } from '../../runner-agent/src/engine/cloud/aws/replay/server.ts';
import { compareLive } from '../../runner-agent/src/engine/compare.ts';
import { buildIgnoreRules } from '../../runner-agent/src/engine/ignore.ts';
import { allAnswers, replayState } from '../../runner-agent/src/engine/replay.ts';
import { parseState } from '../../runner-agent/src/engine/state.ts';
import { replayMain } from '../../runner-agent/src/replay-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'replay-regions-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'main.tf'), [
  'variable "primary" {', '  default = "us-west-2"', '}',
  'provider "aws" {', '  region = var.primary', '}',
  'provider "aws" {', '  alias  = "eu"', '  region = "eu-west-1"', '}',
  'resource "aws_instance" "web" {', '  ami = "ami-1"', '}',
  'resource "aws_instance" "web_eu" {', '  provider = aws.eu', '  ami = "ami-2"', '}',
].join('\n'));
writeFileSync(join(dir, 'terraform.tfvars'), 'primary = "us-east-2"\n');

// Provider 2.x instances (no ARN), with the same id in both regions (a state whose ids were
// masked when it was published): only the region tells them apart.
const instance = (name: string, alias: string, a: Record<string, unknown>) => ({
  mode: 'managed', type: 'aws_instance', name, provider: `provider["registry.terraform.io/hashicorp/aws"]${alias}`,
  instances: [{ schema_version: 1, attributes: {
    id: 'i-0000000000000000a', instance_type: 't3.micro', key_name: '', subnet_id: '', private_ip: '', tenancy: 'default', monitoring: false,
    ebs_optimized: false, source_dest_check: true, iam_instance_profile: '', ...a,
  } }],
});
const state = JSON.stringify({ version: 4, terraform_version: '1.5.7', serial: 1, lineage: 'x', outputs: {}, resources: [
  instance('web', '', { ami: 'ami-1', availability_zone: 'us-east-2a', vpc_security_group_ids: ['sg-1'], tags: { Name: 'web' } }),
  instance('web_eu', '.eu', { ami: 'ami-2', availability_zone: 'eu-west-1b', vpc_security_group_ids: ['sg-2'], tags: { Name: 'web-eu' } }),
] });

t.test('two aliases in two regions: each instance read where its own alias places it', async (t) => {
  const r = await replayState(state, 'aliases', { config: dir });
  t.equal(r.compared, 2);
  t.same(r.drifts, [], 'no drift: the us-east-2 one (var.primary from terraform.tfvars) and the eu-west-1 one (alias eu) each read in its region');
});

t.test('the fake is regional: an instance read in another region than its own is not there', async (t) => {
  const all = parseState(state, 'aliases');
  const placement = new Map(all.map((i) => [i, i.name === 'web' ? 'us-east-2' : 'eu-west-1']));
  const fake = await startFakeCloud(stateWorld(all, placement), allAnswers());
  const aws = new AwsContext({ accessKeyId: 'r', secretAccessKey: 'r', region: 'us-east-1' }, 'us-east-1', fake.endpoint);
  try {
    // Both read in us-east-2 (what a replay without the alias's region did, one region for all).
    const { drifts } = await compareLive(all.map((instance) => ({ instance, region: 'us-east-2' })), aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
    t.same(drifts.map((d) => [d.resourceAddress, d.changeType, d.diff.map((x) => x.attribute)]),
      [['aws_instance.web_eu', 'changed', ['ami', 'availability_zone', 'tags.Name', 'vpc_security_group_ids']]],
      'the eu instance read in us-east-2 is its us-east-2 namesake: the false drift the issue measured');
  } finally {
    aws.destroy();
    await fake.close();
  }
});

t.test('drift-runner replay --config', async (t) => {
  const file = join(dir, 'terraform.tfstate');
  writeFileSync(file, state);
  let text = '';
  const out = new Writable({ write(c, _e, cb) { text += String(c); cb(); } });
  const err = new Writable({ write(_c, _e, cb) { cb(); } });
  t.equal(await replayMain([file, '--json', '--config', dir], out, err), 0, 'exit 0: no drift');
  t.same(JSON.parse(text), { compared: 2, drifts: [] });
});
