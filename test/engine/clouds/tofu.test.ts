// The refresh-only plan path for cloud_b and cloud_c. Always: a stand-in `tofu` on PATH records
// the environment the engine gives it and answers a plan whose resource_drift holds an azurerm or
// google change; the engine passes the stored credentials as the providers' documented variables
// (ARM_*, GOOGLE_*) and maps the drift through the same ignore and severity tables. With a real
// binary and a google provider mirror (DRIFT_TF_PLUGIN_MIRROR), a real refresh-only plan against
// the fake Google API; skipped, saying why, otherwise.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { detectDrift } from '../../../runner-agent/src/engine/index.ts';
import { findTofu } from '../../../runner-agent/src/engine/tofu.ts';
import { serviceAccountKey } from '../cloud-auth-fakes.ts';
import { fakeGoogle } from './fakes.ts';
import { instance } from './harness.ts';

const dir = mkdtempSync(join(tmpdir(), 'drift-tofu-clouds-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** A `tofu` that logs its env and answers `show -json` with `plan`. */
function standIn(plan: unknown, failWhen?: string): { bin: string; envLog: string; argLog: string } {
  const bin = mkdtempSync(join(dir, 'bin-'));
  const envLog = join(bin, 'env.log');
  writeFileSync(join(bin, 'plan.json'), JSON.stringify(plan));
  const argLog = join(bin, 'args.log');
  writeFileSync(join(bin, 'tofu'), [
    '#!/bin/sh',
    'if [ "$1" = "version" ]; then echo \'{"terraform_version":"1.9.0"}\'; exit 0; fi',
    `env > "${envLog}"`,
    `echo "$@" >> "${argLog}"`,
    ...(failWhen ? [`case "$*" in *${failWhen}*) echo 'Error: no credentials for this provider' >&2; exit 1;; esac`] : []),
    `if [ "$1" = "show" ]; then cat "${join(bin, 'plan.json')}"; fi`,
    'exit 0',
  ].join('\n'));
  chmodSync(join(bin, 'tofu'), 0o755);
  return { bin, envLog, argLog };
}

async function withPath<T>(bin: string, fn: () => Promise<T>): Promise<T> {
  const prev = process.env.PATH;
  process.env.PATH = `${bin}:${prev}`;
  try { return await fn(); } finally { process.env.PATH = prev; }
}

type StateResource = { type: string; name: string; provider: string; attributes: Record<string, unknown> };
/** A repository with its main.tf and local state (the engine reads it and hands the plan a copy). */
const repo = (tf: string, resources: StateResource[] = []) => {
  const r = mkdtempSync(join(dir, 'repo-'));
  writeFileSync(join(r, 'main.tf'), tf);
  writeFileSync(join(r, 'terraform.tfstate'), JSON.stringify({
    version: 4, serial: 1, lineage: 'l', outputs: {},
    resources: resources.map((x) => ({ mode: 'managed', type: x.type, name: x.name, provider: `provider["registry.terraform.io/hashicorp/${x.provider}"]`, instances: [{ attributes: x.attributes }] })),
  }));
  return r;
};

t.test('cloud_b: ARM_* from the stored credentials; an NSG rule drift mapped and classified', async (t) => {
  const before = { id: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Network/networkSecurityGroups/nsg/securityRules/ssh', name: 'ssh', access: 'Allow', direction: 'Inbound', protocol: 'Tcp', destination_port_range: '22', source_address_prefix: '10.0.0.0/8', priority: 100 };
  const plan = {
    format_version: '1.2',
    prior_state: { values: { root_module: { resources: [{ address: 'azurerm_network_security_rule.ssh', mode: 'managed', type: 'azurerm_network_security_rule', values: before }] } } },
    resource_drift: [{ address: 'azurerm_network_security_rule.ssh', mode: 'managed', type: 'azurerm_network_security_rule', change: { actions: ['update'], before, after: { ...before, source_address_prefix: '*' } } }],
  };
  const { bin, envLog } = standIn(plan);
  const out = await withPath(bin, () => detectDrift({
    source: { kind: 'path', path: repo('provider "azurerm" {\n  features {}\n}\n', [{ type: 'azurerm_network_security_rule', name: 'ssh', provider: 'azurerm', attributes: before }]) }, iacPaths: [], provider: 'cloud_b', comparison: 'provider', providerPlans: true,
    credentials: { subscriptionId: 's1', tenantId: 't1', clientId: 'c1', clientSecret: 'secret-1' },
  }));
  t.equal(out.stats.mode, 'tofu');
  const env = readFileSync(envLog, 'utf8');
  for (const line of ['ARM_SUBSCRIPTION_ID=s1', 'ARM_TENANT_ID=t1', 'ARM_CLIENT_ID=c1', 'ARM_CLIENT_SECRET=secret-1']) t.match(env, line, line.split('=')[0]);
  t.notMatch(env, /AWS_ACCESS_KEY_ID/, 'no AWS variables');
  t.match(out.drifts, [{ resourceAddress: 'azurerm_network_security_rule.ssh', provider: 'cloud_b', changeType: 'changed', diff: [{ attribute: 'source_address_prefix', before: '10.0.0.0/8', after: '*' }] }]);
});

t.test('cloud_c: GOOGLE_CREDENTIALS and GOOGLE_PROJECT; a label-only change is low', async (t) => {
  const { key } = serviceAccountKey();
  const before = { id: 'projects/p1/global/networks/n', name: 'n', project: 'p1', labels: { team: 'a' }, effective_labels: { team: 'a' } };
  const plan = { resource_drift: [{ address: 'google_compute_network.n', mode: 'managed', type: 'google_compute_network', change: { actions: ['update'], before, after: { ...before, labels: { team: 'b' }, effective_labels: { team: 'b' } } } }] };
  const { bin, envLog } = standIn(plan);
  const out = await withPath(bin, () => detectDrift({
    source: { kind: 'path', path: repo('provider "google" {}\n', [{ type: 'google_compute_network', name: 'n', provider: 'google', attributes: before }]) }, iacPaths: [], provider: 'cloud_c', comparison: 'provider', providerPlans: true, credentials: { projectId: 'p1', serviceAccountKey: key },
  }));
  const env = readFileSync(envLog, 'utf8');
  t.match(env, 'GOOGLE_PROJECT=p1');
  t.match(env, /GOOGLE_CREDENTIALS=\{.*"client_email":"drift-reader@proj-1/);
  t.match(out.drifts, [{ resourceAddress: 'google_compute_network.n', provider: 'cloud_c', severity: 'low' }]);
});

t.test('cloud_b hybrid: the NSG is read natively, the action group (no reader) through a plan targeted at it alone', async (t) => {
  const group = { id: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Insights/actionGroups/ops', name: 'ops', short_name: 'ops', enabled: true, resource_group_name: 'rg' };
  const plan = {
    prior_state: { values: { root_module: { resources: [{ address: 'azurerm_monitor_action_group.ops', mode: 'managed', type: 'azurerm_monitor_action_group', values: group }] } } },
    resource_drift: [{ address: 'azurerm_monitor_action_group.ops', mode: 'managed', type: 'azurerm_monitor_action_group', change: { actions: ['update'], before: group, after: { ...group, enabled: false } } }],
  };
  const { bin, argLog } = standIn(plan);
  const r = repo('provider "azurerm" {\n  features {}\n}\n', [{ type: 'azurerm_monitor_action_group', name: 'ops', provider: 'azurerm', attributes: group }]);
  const input = { source: { kind: 'path' as const, path: r }, iacPaths: [], provider: 'cloud_b' as const, providerPlans: true, credentials: { subscriptionId: 's1', tenantId: 't1', clientId: 'c1', clientSecret: 'secret-1' } };
  const out = await withPath(bin, () => detectDrift(input));
  t.match(out.drifts, [{ resourceAddress: 'azurerm_monitor_action_group.ops', comparedBy: 'provider', diff: [{ attribute: 'enabled', before: true, after: false }] }]);
  t.same(out.stats.comparedBy, { native: 0, provider: 1 });
  t.match(out.stats.providerPlan, { ran: true, binary: 'tofu 1.9.0', targets: 1, compared: 1 });
  t.same(out.stats.notCompared, [], 'nothing left uncompared');
  const args = readFileSync(argLog, 'utf8');
  t.match(args, /^plan -refresh-only -json .*-lock=false .*-target=azurerm_monitor_action_group\.ops$/m, 'one refresh-only plan, targeted, unlocked');
  t.notMatch(args, /apply|secret-1/, 'never apply; no credential on a command line');

  const native = await withPath(bin, () => detectDrift({ ...input, comparison: 'native' }));
  t.same(native.drifts, [], 'comparison native: no plan');
  t.match(native.stats.notCompared, [{ resourceType: 'azurerm_monitor_action_group', reason: 'no_reader', count: 1 }]);
  t.match(native.stats.providerPlan, { ran: false, reason: /comparison is native/ });
});

t.test('a targeted re-check (cloud event, Drift Watch) plans only the addresses it re-checks', async (t) => {
  const group = (name: string) => ({ id: `/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Insights/actionGroups/${name}`, name, short_name: name, enabled: true, resource_group_name: 'rg' });
  const plan = { prior_state: { values: { root_module: { resources: [{ address: 'azurerm_monitor_action_group.b', mode: 'managed', type: 'azurerm_monitor_action_group', values: group('b') }] } } }, resource_drift: [] };
  const { bin, argLog } = standIn(plan);
  const r = repo('provider "azurerm" {\n  features {}\n}\n', ['a', 'b'].map((n) => ({ type: 'azurerm_monitor_action_group', name: n, provider: 'azurerm', attributes: group(n) })));
  const out = await withPath(bin, () => detectDrift({
    source: { kind: 'path', path: r }, iacPaths: [], provider: 'cloud_b', providerPlans: true, addresses: ['azurerm_monitor_action_group.b'],
    credentials: { subscriptionId: 's1', tenantId: 't1', clientId: 'c1', clientSecret: 'secret-1' },
  }));
  const planLine = readFileSync(argLog, 'utf8').split('\n').find((l) => l.startsWith('plan '));
  t.match(planLine, / -target=azurerm_monitor_action_group\.b$/, 'targeted at the re-checked address');
  t.notMatch(planLine, /action_group\.a/, 'not at the others');
  t.match(out.stats.providerPlan, { ran: true, targets: 1, compared: 1 });
});

t.test('a plan that fails is retried per provider: one provider without credentials leaves only its own instances not compared', async (t) => {
  const group = { id: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Insights/actionGroups/ops', name: 'ops', short_name: 'ops', enabled: true, resource_group_name: 'rg' };
  const plan = {
    prior_state: { values: { root_module: { resources: [{ address: 'azurerm_monitor_action_group.ops', mode: 'managed', type: 'azurerm_monitor_action_group', values: group }] } } },
    resource_drift: [{ address: 'azurerm_monitor_action_group.ops', mode: 'managed', type: 'azurerm_monitor_action_group', change: { actions: ['update'], before: group, after: { ...group, enabled: false } } }],
  };
  const { bin, argLog } = standIn(plan, '-target=cloudflare_');
  const r = repo('provider "azurerm" {\n  features {}\n}\n', [
    { type: 'azurerm_monitor_action_group', name: 'ops', provider: 'azurerm', attributes: group },
    { type: 'cloudflare_record', name: 'www', provider: 'cloudflare', attributes: { id: 'rec1', name: 'www' } },
  ]);
  const out = await withPath(bin, () => detectDrift({
    source: { kind: 'path', path: r }, iacPaths: [], provider: 'cloud_b', providerPlans: true,
    credentials: { subscriptionId: 's1', tenantId: 't1', clientId: 'c1', clientSecret: 'secret-1' },
  }));
  t.match(out.drifts, [{ resourceAddress: 'azurerm_monitor_action_group.ops', comparedBy: 'provider' }], 'the azurerm instance is compared');
  t.equal(readFileSync(argLog, 'utf8').split('\n').filter((l) => l.startsWith('plan ')).length, 3, 'one plan for both, then one per provider');
  t.match(out.stats.providerPlan, { ran: true, targets: 2, compared: 1, reason: /^cloudflare: tofu plan failed: .*no credentials/ });
  t.same(out.stats.notCompared, [{ resourceType: 'cloudflare_record', reason: 'no_reader', count: 1 }], 'the cloudflare record stays not compared');
});

const mirror = process.env.DRIFT_TF_PLUGIN_MIRROR ?? '/opt/tf-plugins';
const real = findTofu();
const skip = !real ? 'neither tofu nor terraform on PATH' : !existsSync(join(mirror, 'registry.terraform.io', 'hashicorp', 'google')) ? `no google provider mirror at ${mirror}` : false;

t.test('a real refresh-only plan of a google network against the fake API', { skip }, async (t) => {
  const { key, publicKey } = serviceAccountKey();
  const net = instance('google_compute_network', 'n', { id: 'projects/p1/global/networks/n', name: 'n', project: 'p1', description: '', auto_create_subnetworks: false, routing_mode: 'REGIONAL', mtu: 1460 });
  const fake = await fakeGoogle([{ ...net, attributes: { ...net.attributes, routing_mode: 'GLOBAL' } }], { [key.client_email]: publicKey });
  t.teardown(() => fake.close());
  const rc = join(dir, 'cli.tfrc');
  writeFileSync(rc, `provider_installation {\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`);
  process.env.TF_CLI_CONFIG_FILE = rc;
  const r = repo(`provider "google" {\n  project = "p1"\n  access_token = "x"\n  compute_custom_endpoint = "${fake.endpoint}/compute/compute/v1/"\n}\nresource "google_compute_network" "n" {\n  name = "n"\n  auto_create_subnetworks = false\n}\n`);
  writeFileSync(join(r, 'terraform.tfstate'), JSON.stringify({ version: 4, serial: 1, lineage: 'l', resources: [{ mode: 'managed', type: 'google_compute_network', name: 'n', provider: 'provider["registry.terraform.io/hashicorp/google"]', instances: [{ attributes: net.attributes }] }] }));
  const out = await detectDrift({ source: { kind: 'path', path: r }, iacPaths: [], provider: 'cloud_c', comparison: 'provider', providerPlans: true, credentials: { projectId: 'p1', serviceAccountKey: key } });
  t.equal(out.stats.mode, 'tofu', out.stats.providerPlan?.reason ?? '');
  t.match(out.drifts, [{ resourceAddress: 'google_compute_network.n', diff: [{ attribute: 'routing_mode', before: 'REGIONAL', after: 'GLOBAL' }] }]);
});
