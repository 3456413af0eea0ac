// The state corpus (test/engine/corpus, README there): real v4 states from public test data and
// a few written for cases public data lacks. Every state parses; its addresses and the region
// each instance resolves to are the recorded ones; coverage adds up; malformed states give a
// parse_error naming what is wrong; `drift-runner coverage --json` prints the documented shape.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import t from 'tap';
import { coverageMain } from '../../runner-agent/src/coverage-cli.ts';
import { AWS_READERS } from '../../runner-agent/src/engine/cloud/aws/index.ts';
import { REASONS, stateCoverage } from '../../runner-agent/src/engine/coverage.ts';
import { parseRootModule, type RootModule } from '../../runner-agent/src/engine/hcl.ts';
import { arnRegion, noConfiguration, RegionResolver } from '../../runner-agent/src/engine/region.ts';
import { readStateDocument } from '../../runner-agent/src/engine/state-v4.ts';

const dir = path.join(import.meta.dirname, 'corpus');
const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Record<string, Record<string, string | null>>;
const states = readdirSync(dir).filter((f) => f.endsWith('.tfstate')).sort();
const supported = (type: string) => !!AWS_READERS[type];

async function load(file: string): Promise<{ doc: ReturnType<typeof readStateDocument>; module: RootModule }> {
  const doc = readStateDocument(readFileSync(path.join(dir, file), 'utf8'), file);
  const cfg = path.join(dir, file.replace(/\.tfstate$/, ''));
  return { doc, module: existsSync(cfg) ? await parseRootModule(cfg, '') : noConfiguration(dir) };
}

t.test('the corpus is what its README says', async (t) => {
  t.ok(states.length >= 150, `${states.length} states`);
  t.same(Object.keys(expected).sort(), states, 'expected.json lists every state');
  const bytes = states.reduce((n, f) => n + readFileSync(path.join(dir, f)).length, 0);
  t.ok(bytes < 3 << 20, `modest size (${Math.round(bytes / 1024)} KiB)`);
});

t.test('every state: its addresses and the region each instance resolves to', async (t) => {
  let withArn = 0;
  for (const file of states) {
    const { doc, module } = await load(file);
    const regions = new RegionResolver(module, dir, '');
    await regions.prepare(doc.instances);
    const got = Object.fromEntries(doc.instances.map((i) => [i.address, i.type.startsWith('aws_') ? regions.regionOf(i).region ?? null : null]));
    t.same(got, expected[file], file);
    for (const i of doc.instances) {
      const arn = arnRegion(i.attributes);
      if (!arn) continue;
      withArn++;
      const answer = regions.regionOf(i);
      // The configuration may have moved since the state was written (driftctl's .tf files name
      // us-east-1 for states taken in eu-west-3): the provider's region comes first, and the scan
      // re-reads what it does not find there in the ARN's region. Without configuration, the ARN decides.
      if (answer.source !== 'provider' && answer.source !== 'variable') t.equal(answer.region, arn, `${file} ${i.address}: ARN region`);
    }
  }
  t.ok(withArn > 50, `${withArn} instances carry a region in their ARN`);
});

t.test('regions the written states resolve, and from where', async (t) => {
  const sources = async (file: string) => {
    const { doc, module } = await load(file);
    const regions = new RegionResolver(module, dir, '');
    await regions.prepare(doc.instances);
    return Object.fromEntries(doc.instances.map((i) => [i.address, regions.regionOf(i)]));
  };
  const tofu = await sources('written-opentofu-provider-for-each.tfstate');
  t.same(tofu['aws_s3_bucket_versioning.logs["eu-west-1"]'], { region: 'eu-west-1', source: 'variable' }, 'OpenTofu per-instance provider: each.value of for_each over a variable');
  t.same(tofu['aws_s3_bucket_versioning.logs["us-east-1"]'], { region: 'us-east-1', source: 'variable' });
  const vars = await sources('written-variable-regions.tfstate');
  t.same(vars['aws_security_group_rule.main_https'], { region: 'eu-central-1', source: 'variable' }, 'var.region from terraform.tfvars over its default');
  t.same(vars['aws_security_group_rule.dr_https'], { region: 'ap-southeast-2', source: 'variable' }, 'local.dr_region');
  t.same(vars['module.replica.aws_security_group_rule.app_https'], { region: 'ca-central-1', source: 'variable' }, 'module-local provider, region from the module argument');
  const flat = await sources('written-attributes-flat.tfstate');
  t.same(flat['aws_security_group.web'], { region: 'us-west-2', source: 'provider' }, '0.12 legacy alias provider.aws.oregon');
  t.same(flat['module.assets.aws_s3_bucket.this'], { region: 'eu-west-1', source: 'attribute' }, 'the bucket\'s own region attribute');
});

t.test('attributes_flat instances are decoded, not dropped', async (t) => {
  const { doc } = await load('written-attributes-flat.tfstate');
  t.same(doc.instances.map((i) => [i.address, !!i.flat]), [
    ['aws_instance.web', true], ['aws_security_group.web', true], ['module.assets.aws_s3_bucket.this', true], ['null_resource.bootstrap', true],
  ]);
  const sg = doc.instances[1].attributes;
  t.same((sg.ingress as { from_port: string }[]).map((r) => r.from_port).sort(), ['22', '443'], 'a set keyed by hashes becomes a list');
  t.same(doc.instances[0].attributes.tags, { Name: 'legacy-web', 'kubernetes.io/cluster/legacy': 'owned' }, 'a tag key with dots and slashes stays whole');
  t.same(doc.instances[0].attributes.vpc_security_group_ids, ['sg-0d44444444444444d']);
});

t.test('coverage over the corpus adds up', async (t) => {
  let total = 0;
  let compared = 0;
  for (const file of states) {
    const { doc, module } = await load(file);
    const report = await stateCoverage(doc, { supported, module, repoRoot: dir });
    const aws = doc.instances.filter((i) => i.type.startsWith('aws_')).length;
    t.equal(report.total, aws, `${file}: total counts the managed aws_* instances`);
    t.equal(report.other, doc.instances.length - aws, `${file}: other providers apart`);
    for (const [type, c] of Object.entries(report.byType)) {
      if (!supported(type)) t.same(c, { total: c.total, compared: 0, reason: REASONS.unsupported }, `${file} ${type}`);
      else if (c.reason) t.ok(c.compared < c.total && /^(region unknown|no attributes in the state)(; |$)/.test(c.reason), `${file} ${type}: ${c.reason}`);
      else t.equal(c.compared, c.total, `${file} ${type}: all compared`);
    }
    total += report.total;
    compared += report.compared;
  }
  t.ok(total > 200, `${compared} of ${total} aws_* instances compared`);
});

t.test('malformed states give a parse_error that says what is wrong', async (t) => {
  const bad = (text: string) => () => readStateDocument(text, 'corpus');
  t.throws(bad(readFileSync(path.join(dir, 'malformed', 'driftctl-v4-invalid.tfstate'), 'utf8')), { code: 'parse_error', message: /not valid JSON/ });
  const cases: [string, RegExp][] = [
    ['{"version":4,"resources":[null]}', /resources\[0\] is null, not a resource object/],
    ['{"version":4,"resources":[{"mode":"managed","type":"aws_vpc","name":"a","instances":{}}]}', /aws_vpc\.a "instances" is an object, not a list/],
    ['{"version":4,"resources":[{"mode":"managed","type":"aws_vpc","name":"a","instances":[null]}]}', /aws_vpc\.a instances\[0\] is null/],
    ['{"version":4,"resources":[{"mode":"managed","name":"a","instances":[]}]}', /resources\[0\] has no "type" string/],
    ['{"version":4,"resources":{}}', /"resources" is an object, not a list/],
    ['{"version":"4","resources":[]}', /a "version" that is a string \("4"\); the format version is the number 4, unquoted/],
    ['{"version":3}', /format version 3; the scanner reads format version 4/],
    ['{"resources":[]}', /has no "version" field/],
    ['[]', /is a list, not a state file/],
    ['{"version":4,"resources":[{"mode":"managed","type":"aws_vpc","name":"a","provider":"aws","instances":[]}]}', /aws_vpc\.a invalid provider address "aws"/],
    ['{"version":4,"resources":[{"mode":"managed","type":"aws_vpc","name":"a","instances":[{"attributes":{},"sensitive_attributes":{}}]}]}', /"sensitive_attributes" is an object, not a list of paths/],
    ['{"version":4,"resources":[{"mode":"managed","type":"aws_vpc","name":"a","instances":[{"attributes_flat":{"a":1}}]}]}', /"attributes_flat" is not an object of strings/],
  ];
  for (const [text, message] of cases) t.throws(bad(text), { code: 'parse_error', message }, text);
});

t.test('drift-runner coverage --json prints one document', async (t) => {
  const run = async (args: string[]) => {
    const out = new PassThrough();
    const err = new PassThrough();
    let stdout = '';
    let stderr = '';
    out.on('data', (c) => { stdout += c; });
    err.on('data', (c) => { stderr += c; });
    const code = await coverageMain(args, {}, out, err);
    return { code, stdout, stderr };
  };
  const file = path.join(dir, 'written-variable-regions.tfstate');
  const withConfig = await run(['--json', file, '--config', path.join(dir, 'written-variable-regions')]);
  t.equal(withConfig.code, 0);
  const doc = JSON.parse(withConfig.stdout);
  t.same(Object.keys(doc), ['total', 'compared', 'percent', 'byType', 'other', 'byProvider', 'providers'], 'the documented keys');
  t.same(Object.keys(doc.providers), ['aws', 'azurerm', 'google'], 'per provider');
  t.same(doc.byType.aws_security_group_rule, { total: 3, compared: 3 }, 'every rule has a region with the configuration');
  const alone = JSON.parse((await run(['--json', file])).stdout);
  t.same(alone.byType.aws_security_group_rule, { total: 3, compared: 2, reason: REASONS.region },
    'without it, the module-local rule has none (its peers give the other two theirs)');
  const withRegion = JSON.parse((await run(['--json', file, '--region', 'eu-west-1'])).stdout);
  t.equal(withRegion.byType.aws_security_group_rule.compared, 3, 'a credentials region is the last resort');
  const table = await run([path.join(dir, 'written-default-tags-sensitive.tfstate')]);
  t.match(table.stdout, /resource type\s+total\s+compared/, 'a table without --json');
  t.notMatch(table.stdout, /correct-horse|sk_live/, 'no attribute value is printed');
  t.equal((await run(['--json', path.join(dir, 'malformed', 'driftctl-v4-invalid.tfstate')])).code, 1, 'a malformed state fails');
  t.equal((await run([])).code, 2, 'usage');
});
