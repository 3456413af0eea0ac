// The pure parts behind regions and false drift: provider addresses, flatmap decoding, the HCL
// expressions a region is written with, .tofu files, tags_all, role policies managed elsewhere,
// the inline_policy placeholder and sensitive-value redaction.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parseProviderAddress } from '../../runner-agent/src/engine/address.ts';
import { roleReader } from '../../runner-agent/src/engine/cloud/aws/iam/roles.ts';
import { compareAttributes } from '../../runner-agent/src/engine/diff.ts';
import { decodeFlatmap } from '../../runner-agent/src/engine/flatmap.ts';
import { evaluate } from '../../runner-agent/src/engine/hcl-expr.ts';
import { parseRootModule } from '../../runner-agent/src/engine/hcl.ts';
import { buildIgnoreRules } from '../../runner-agent/src/engine/ignore.ts';
import { hashSensitive, redactDiff, SENSITIVE_CHANGED } from '../../runner-agent/src/engine/sensitive.ts';
import { standaloneView } from '../../runner-agent/src/engine/standalone.ts';
import type { StateInstance } from '../../runner-agent/src/engine/types.ts';
import { withAllTags } from '../../runner-agent/src/engine/values.ts';

const noIgnore = buildIgnoreRules([], {});

t.test('provider addresses in every form a state holds', async (t) => {
  const cases: [string, object][] = [
    ['provider.aws', { type: 'aws' }],
    ['provider.aws.west', { type: 'aws', alias: 'west' }],
    ['module.m.provider.aws.west', { module: 'module.m', type: 'aws', alias: 'west' }],
    ['provider["registry.terraform.io/hashicorp/aws"]', { type: 'aws' }],
    ['provider["registry.terraform.io/hashicorp/aws"].west', { type: 'aws', alias: 'west' }],
    ['module.a.module.b.provider["registry.terraform.io/hashicorp/aws"].west', { module: 'module.a.module.b', type: 'aws', alias: 'west' }],
    ['provider["registry.opentofu.org/hashicorp/aws"].by_region["eu-west-1"]', { type: 'aws', alias: 'by_region', key: 'eu-west-1' }],
    ['provider["registry.terraform.io/-/aws"]', { type: 'aws' }],
  ];
  for (const [address, want] of cases) t.same(parseProviderAddress(address), want, address);
  for (const bad of ['aws', 'provider', 'module.m.aws_instance.x', 'provider[0]', 'provider.aws.a.b']) t.throws(() => parseProviderAddress(bad), /invalid provider address/, bad);
});

t.test('attributes_flat decodes to the nested attributes', async (t) => {
  t.same(decodeFlatmap({
    id: 'x', 'tags.%': '2', 'tags.Name': 'a', 'tags.k8s.io/role': 'b', 'tags_all.%': '0',
    'list.#': '2', 'list.0': 'first', 'list.1': 'second', 'empty.#': '0',
    'rule.#': '1', 'rule.99.ports.#': '1', 'rule.99.ports.0': '22', 'rule.99.nested.%': '1', 'rule.99.nested.k': 'v',
  }), {
    id: 'x', tags: { Name: 'a', 'k8s.io/role': 'b' }, tags_all: {}, list: ['first', 'second'], empty: [],
    rule: [{ ports: ['22'], nested: { k: 'v' } }],
  });
});

t.test('region expressions reduce to literals, or to nothing', async (t) => {
  const scope = {
    variables: new Map<string, unknown>([['region', 'eu-west-1'], ['regions', ['a-1', 'b-2']], ['m', { prod: 'us-east-2' }]]),
    locals: new Map<string, unknown>([['r', '${var.region}'], ['loop', '${local.loop}'], ['tmpl', 'x-${var.region}']]),
  };
  t.equal(evaluate('us-east-1', scope), 'us-east-1', 'a literal');
  t.equal(evaluate('${var.region}', scope), 'eu-west-1');
  t.equal(evaluate('${local.r}', scope), 'eu-west-1', 'a local through a variable');
  t.equal(evaluate('${var.m["prod"]}', scope), 'us-east-2', 'an index step');
  t.equal(evaluate('${var.m.prod}', scope), 'us-east-2', 'an attribute step');
  t.same(evaluate('${toset(var.regions)}', scope), ['a-1', 'b-2']);
  t.same(evaluate('${toset(["x-1", "x-1", "y-2"])}', scope), ['x-1', 'y-2'], 'a list literal');
  t.equal(evaluate('${each.value}', { ...scope, each: { key: 'k', value: 'v-1' } }), 'v-1');
  t.equal(evaluate('${local.loop}', scope), undefined, 'a cycle ends');
  t.equal(evaluate('${local.tmpl}', scope), undefined, 'a template is not a region');
  t.equal(evaluate('${var.missing}', scope), undefined);
  t.equal(evaluate('${data.aws_region.current.name}', scope), undefined, 'data sources are not read');
});

t.test('.tofu files are read, and win over a .tf of the same name', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'drift-tofu-files-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'main.tf'), 'provider "aws" {\n  region = "us-east-1"\n}\n');
  writeFileSync(join(dir, 'main.tofu'), 'provider "aws" {\n  region = var.region\n}\n');
  writeFileSync(join(dir, 'vars.tofu.json'), JSON.stringify({ variable: { region: { default: 'eu-north-1' } } }));
  writeFileSync(join(dir, 'b.auto.tfvars'), 'region = "eu-south-1"\n');
  writeFileSync(join(dir, 'a.auto.tfvars.json'), '{"region": "eu-west-2"}');
  const mod = await parseRootModule(dir, '');
  t.same(mod.files, ['main.tofu', 'vars.tofu.json'], 'main.tf is replaced by main.tofu');
  t.same(mod.providers, [{ alias: '', region: '${var.region}', forEach: undefined }]);
  t.equal(mod.variables.get('region'), 'eu-south-1', 'tfvars over the default, later *.auto.tfvars over earlier');
});

t.test('tags compare as tags_all: default_tags are no drift', async (t) => {
  const state = { tags: { Name: 'a' }, tags_all: { Name: 'a', Env: 'prod' } };
  t.same(withAllTags(state), { tags: { Name: 'a', Env: 'prod' } });
  t.same(compareAttributes('aws_vpc', 'aws_vpc.a', withAllTags(state), { tags: { Name: 'a', Env: 'prod' } }, {}, noIgnore).diff, []);
  t.same(compareAttributes('aws_vpc', 'aws_vpc.a', withAllTags(state), { tags: { Name: 'a', Env: 'dev' } }, {}, noIgnore).diff,
    [{ attribute: 'tags.Env', before: 'prod', after: 'dev' }], 'a default tag changed out of band still shows');
  t.same(withAllTags({ tags: { Name: 'a' } }), { tags: { Name: 'a' } }, 'a state without tags_all keeps tags');
  t.same(withAllTags({ tags: { Name: 'a' }, tags_all: {} }), { tags: { Name: 'a' }, tags_all: {} }, 'a tags_all missing some tags is not the full set');
});

t.test('role policies managed by their own resources are not compared on the role', async (t) => {
  const { withoutManaged, MANAGED_POLICIES } = await import('../../runner-agent/src/engine/role-policies.ts');
  const inst = (type: string, name: string, attributes: Record<string, unknown>): StateInstance => ({ address: `${type}.${name}`, type, name, attributes });
  // The role's copy is stale: it predates the attachment and the inline policy.
  const role = inst('aws_iam_role', 'r', { name: 'app', managed_policy_arns: [], inline_policy: [{ name: '', policy: '' }], description: 'd' });
  const other = inst('aws_iam_role', 'o', { name: 'other', managed_policy_arns: ['arn:b'] });
  const view = standaloneView([role, other,
    inst('aws_iam_role_policy_attachment', 'a', { role: 'app', policy_arn: 'arn:a' }), inst('aws_iam_role_policy', 'p', { id: 'app:p', name: 'p', role: 'app', policy: '{}' })]);
  const state = view(role);
  const managed = (state as Record<symbol, Parameters<typeof withoutManaged>[1]>)[MANAGED_POLICIES];
  const compare = (live: Record<string, unknown>) => compareAttributes('aws_iam_role', 'aws_iam_role.r', state, withoutManaged(live, managed), roleReader.spec, noIgnore).diff;
  t.same(compare({ name: 'app', description: 'd', managed_policy_arns: ['arn:a'], inline_policy: [{ name: 'p', policy: '{}' }] }), [],
    'what the attachment and the inline policy resources manage is theirs');
  const extra = compare({ name: 'app', description: 'd', managed_policy_arns: ['arn:a', 'arn:admin'], inline_policy: [{ name: 'p', policy: '{}' }] });
  t.same(extra.map((d) => [d.attribute, d.after]), [['managed_policy_arns', ['arn:admin']]], 'a policy attached out of band is still reported on the role');
  t.equal(view(other), other.attributes, 'a role without them keeps its lists');
});

t.test('the inline_policy placeholder is no policy', async (t) => {
  const placeholder = { name: 'app', inline_policy: [{ name: '', policy: '' }] };
  t.same(compareAttributes('aws_iam_role', 'aws_iam_role.a', placeholder, { name: 'app', inline_policy: [] }, roleReader.spec, noIgnore).diff, []);
  const added = compareAttributes('aws_iam_role', 'aws_iam_role.a', placeholder, { name: 'app', inline_policy: [{ name: 'x', policy: '{"Version":"2012-10-17"}' }] }, roleReader.spec, noIgnore).diff;
  t.equal(added.length, 1, 'an inline policy added out of band still shows');
});

t.test('sensitive values are compared by hash and redacted', async (t) => {
  const paths = [['password'], ['tags', 'Token'], ['inline_policy', '0', 'policy']];
  const state = hashSensitive({ password: 'a', tags: { Token: 'x', Name: 'n' }, inline_policy: [{ name: 'p', policy: 'secret' }] }, paths);
  t.notMatch(JSON.stringify(state), /"a"|"x"|secret/, 'no clear value left');
  t.same((state.tags as Record<string, string>).Name, 'n', 'other values untouched');
  t.equal(state.password, hashSensitive({ password: 'a' }, [['password']]).password, 'equal values hash alike');
  t.not(state.password, hashSensitive({ password: 'b' }, [['password']]).password);
  t.same(redactDiff([{ attribute: 'tags.Token', before: 'h1', after: 'h2' }, { attribute: 'inline_policy', before: [1], after: [] }, { attribute: 'tags.Name', before: 'n', after: 'm' }], paths), [
    { attribute: 'tags.Token', before: SENSITIVE_CHANGED, after: SENSITIVE_CHANGED },
    { attribute: 'inline_policy', before: SENSITIVE_CHANGED, after: SENSITIVE_CHANGED },
    { attribute: 'tags.Name', before: 'n', after: 'm' },
  ], 'an entry at, above or under a sensitive path');
});

t.test('the tofu path redacts what the plan marks sensitive', async (t) => {
  const { mapResourceDrift } = await import('../../runner-agent/src/engine/tofu.ts');
  const plan = { resource_drift: [{
    address: 'aws_db_instance.app', mode: 'managed', type: 'aws_db_instance',
    change: {
      actions: ['update'], before: { id: 'db', password: 'old-secret', instance_class: 'db.t3.micro' },
      after: { id: 'db', password: 'new-secret', instance_class: 'db.t3.small' },
      before_sensitive: { password: true }, after_sensitive: { password: true },
    },
  }] };
  const { drifts } = mapResourceDrift(plan, noIgnore);
  t.same(drifts[0].diff, [
    { attribute: 'instance_class', before: 'db.t3.micro', after: 'db.t3.small' },
    { attribute: 'password', before: SENSITIVE_CHANGED, after: SENSITIVE_CHANGED },
  ]);
  t.notMatch(JSON.stringify(drifts), /secret/);
});

t.test('coverage: deposed objects left out, instances without attributes named', async (t) => {
  const { readStateDocument } = await import('../../runner-agent/src/engine/state-v4.ts');
  const { stateCoverage } = await import('../../runner-agent/src/engine/coverage.ts');
  const doc = readStateDocument(JSON.stringify({ version: 4, resources: [
    { mode: 'managed', type: 'aws_instance', name: 'a', provider: 'provider.aws', instances: [
      { attributes: { id: 'i-1', arn: 'arn:aws:ec2:eu-west-1:1:instance/i-1' } },
      { deposed: '00000001', attributes: { id: 'i-0' } },
    ] },
    { mode: 'managed', type: 'aws_instance', name: 'b', provider: 'provider.aws', instances: [{ schema_version: 1 }] },
    { mode: 'managed', type: 'aws_glue_job', name: 'j', provider: 'provider.aws', instances: [{ attributes: { id: 'j' } }] },
    { mode: 'data', type: 'aws_ami', name: 'x', provider: 'provider.aws', instances: [{ attributes: { id: 'ami' } }] },
    { mode: 'managed', type: 'tls_private_key', name: 'k', provider: 'provider.tls', instances: [{ attributes: { id: 'k' } }] },
  ] }), 'unit');
  t.same(doc.empty, [{ address: 'aws_instance.b', type: 'aws_instance' }]);
  t.equal(doc.deposed, 1);
  const report = await stateCoverage(doc, { supported: (type) => type === 'aws_instance' });
  t.same(report, {
    total: 3, compared: 1, percent: 33.3, other: 1,
    byType: { aws_instance: { total: 2, compared: 1, reason: 'no attributes in the state' }, aws_glue_job: { total: 1, compared: 0, reason: 'type not supported' } },
    providers: { aws: { total: 3, compared: 1, percent: 33.3 }, azurerm: { total: 0, compared: 0, percent: 100 }, google: { total: 0, compared: 0, percent: 100 } },
    byProvider: {
      aws: { total: 3, native: 1, plan: 1, planTypes: { aws_glue_job: 1 } },
      tls: { total: 1, native: 0, plan: 1, planTypes: { tls_private_key: 1 } },
    },
  });
});

t.test('a provider for_each over a map: each.value of the instance key', async (t) => {
  const { RegionResolver } = await import('../../runner-agent/src/engine/region.ts');
  const dir = mkdtempSync(join(tmpdir(), 'drift-foreach-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'main.tofu'), [
    'locals {\n  regions = { east = "us-east-1", west = "us-west-2" }\n}',
    'provider "aws" {\n  alias    = "r"\n  for_each = local.regions\n  region   = each.value\n}',
    'provider "aws" {\n  alias    = "k"\n  for_each = toset(["eu-west-1"])\n  region   = each.key\n}',
  ].join('\n'));
  const regions = new RegionResolver(await parseRootModule(dir, ''), dir, '');
  const inst = (alias: string, key: string): StateInstance => ({ address: 'aws_sqs_queue.q', type: 'aws_sqs_queue', name: 'q', attributes: {}, provider: { type: 'aws', alias, key } });
  t.same(regions.regionOf(inst('r', 'west')), { region: 'us-west-2', source: 'variable' });
  t.same(regions.regionOf(inst('k', 'eu-west-1')), { region: 'eu-west-1', source: 'variable' }, 'each.key of a set');
  t.same(regions.regionOf(inst('r', 'north')), {}, 'a key the map does not hold: unknown');
});
