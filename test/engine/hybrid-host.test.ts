// Hybrid scans and the host they run on (issue 34 points 2 and 5), fast: no terraform apply.
// On a confined host (the built-in executor) a configuration that runs programs during a plan
// (`data "external"`, a provisioner) is refused with a ScanError naming the file and how the
// operator allows it, unless the operator did (allowPlanPrograms). A runner without a binary
// scans natively only and says so in the scan's stats.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { CreateSecurityGroupCommand, CreateTagsCommand } from '@aws-sdk/client-ec2';
import { detectDrift, type ScanInput } from '../../runner-agent/src/engine/index.ts';
import { ScanError } from '../../runner-agent/src/engine/errors.ts';
import { renderPermissions } from '../../runner-agent/src/engine/cloud/aws/vpc/security-group-rules.ts';
import { SKIP, writeCliConfig } from './hybrid/estate.ts';
import { clients, commitFile, CREDENTIALS, describeGroup, git } from './world.ts';

const AWS = 'provider["registry.terraform.io/hashicorp/aws"]';
const BUILTIN = 'provider["terraform.io/builtin/terraform"]';
type Res = { type: string; name: string; provider: string; attributes: Record<string, unknown> };
const state = (resources: Res[]) => JSON.stringify({
  version: 4, terraform_version: '1.11.4', serial: 1, lineage: 'hybrid-host', outputs: {},
  resources: resources.map((r) => ({ mode: 'managed', type: r.type, name: r.name, provider: r.provider, instances: [{ schema_version: 0, attributes: r.attributes, sensitive_attributes: [] }] })),
});

/** A git repository holding main.tf and its committed state. */
function repoWith(t: { teardown(f: () => void): void }, mainTf: string, resources: Res[]): string {
  const scratch = mkdtempSync(join(tmpdir(), 'drift-hybrid-host-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  git(scratch, 'init', '-q', '-b', 'main', 'repo');
  const repo = join(scratch, 'repo');
  writeFileSync(join(repo, 'terraform.tfstate'), state(resources));
  commitFile(repo, 'main.tf', mainTf);
  return repo;
}

/** Sets environment variables for one test, restored after it. */
function withEnv(t: { teardown(f: () => void): void }, vars: Record<string, string | undefined>): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>) => { for (const [k, x] of Object.entries(v)) { if (x === undefined) delete process.env[k]; else process.env[k] = x; } };
  apply(vars);
  t.teardown(() => apply(saved));
}

// A builtin resource: its plan needs no provider download, and it has no native reader.
const DATA_ONLY = [{ type: 'terraform_data', name: 'marker', provider: BUILTIN, attributes: { id: 'f0e1d2c3-0000-4000-8000-000000000001', input: null, output: null, triggers_replace: null } }];
const EXTERNAL_TF = `resource "terraform_data" "marker" {}

data "external" "who" {
  program = ["sh", "-c", "id >&2; echo '{}'"]
}
`;
const PROVISIONER_TF = `resource "terraform_data" "marker" {
  provisioner "local-exec" {
    command = "id"
  }
}
`;

const confinedInput = (repo: string, over: Partial<ScanInput> = {}): ScanInput => ({
  source: { kind: 'git', url: repo, branch: 'main' }, iacPaths: [], provider: 'cloud_a', credentials: CREDENTIALS, endpoint: clients().endpoint,
  comparison: 'auto', providerPlans: true, confined: true, ...over,
});

for (const [what, tf, construct] of [['data "external"', EXTERNAL_TF, /external/], ['a provisioner', PROVISIONER_TF, /provisioner/]] as const) {
  t.test(`confined host: ${what} is refused unless the operator allows programs`, async (t) => {
    const repo = repoWith(t, tf, DATA_ONLY);
    const err = await detectDrift(confinedInput(repo)).then(() => null, (e: unknown) => e);
    t.ok(err instanceof ScanError, `the scan fails with a ScanError (${err instanceof Error ? err.message : String(err)})`);
    const message = err instanceof Error ? err.message : '';
    t.match(message, /main\.tf/, 'naming the file');
    t.match(message, construct, 'and the construct');
    t.match(message, /EXECUTOR_PLAN_PROGRAMS/, 'and how the operator allows it');
  });
}

t.test('confined host: a provisioner passes when the operator allows programs', { skip: SKIP }, async (t) => {
  // A provisioner runs on apply only, never in a plan: once allowed, the plan runs.
  const scratch = mkdtempSync(join(tmpdir(), 'drift-hybrid-rc-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  withEnv(t, { TF_CLI_CONFIG_FILE: writeCliConfig(scratch) });
  const repo = repoWith(t, PROVISIONER_TF, DATA_ONLY);
  const out = await detectDrift(confinedInput(repo, { allowPlanPrograms: true }));
  t.match(out.stats.providerPlan, { ran: true, targets: 1, compared: 1 }, `the plan ran (${out.stats.providerPlan?.reason ?? 'no reason given'})`);
  t.same(out.drifts, [], 'nothing drifted');
  t.same(out.stats.comparedBy, { native: 0, provider: 1 });
});

t.test('confined host: data "external" allowed is no longer refused by the confinement', { skip: SKIP }, async (t) => {
  // The mirror holds no hashicorp/external provider: the plan fails at init, and the scan says so
  // in providerPlan.reason instead of refusing the configuration.
  const scratch = mkdtempSync(join(tmpdir(), 'drift-hybrid-rc-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const repo = repoWith(t, EXTERNAL_TF, DATA_ONLY);
  // A private TMPDIR: the failed plan's scratch copy must be gone too.
  const privateTmp = join(scratch, 'tmp');
  mkdirSync(privateTmp);
  withEnv(t, { TF_CLI_CONFIG_FILE: writeCliConfig(scratch), TMPDIR: privateTmp });
  const out = await detectDrift(confinedInput(repo, { allowPlanPrograms: true }));
  t.same(readdirSync(privateTmp), [], 'nothing left in TMPDIR after the failed plan');
  t.equal(out.stats.providerPlan?.ran, false, 'the plan did not complete');
  t.match(out.stats.providerPlan?.reason, /external/, `its reason is the missing provider, not the confinement (${out.stats.providerPlan?.reason})`);
  t.notMatch(out.stats.providerPlan?.reason, /EXECUTOR_PLAN_PROGRAMS/);
});

// ---- a runner without a binary: native only, and the stats say why --------------------------

async function nativeEstate(t: { teardown(f: () => void): void }) {
  const c = clients();
  const suffix = `${Date.now().toString(36)}${process.pid}`;
  const sgId = (await c.ec2.send(new CreateSecurityGroupCommand({ GroupName: `hybrid-host-${suffix}`, Description: 'web' }))).GroupId!;
  const g = await describeGroup(c, sgId);
  const repo = repoWith(t, 'provider "aws" {\n  region = "us-east-1"\n}\n', [
    { type: 'aws_security_group', name: 'web', provider: AWS, attributes: {
      id: sgId, arn: g.SecurityGroupArn, name: g.GroupName, description: 'web', vpc_id: g.VpcId, owner_id: g.OwnerId, tags: {}, tags_all: {},
      ingress: [], egress: renderPermissions(g.IpPermissionsEgress, sgId), revoke_rules_on_delete: false, name_prefix: '',
    } },
    // No native reader: only a provider plan compares it.
    { type: 'aws_cloudwatch_dashboard', name: 'main', provider: AWS, attributes: { id: `dash-${suffix}`, dashboard_name: `dash-${suffix}`, dashboard_body: '{"widgets":[]}', dashboard_arn: '' } },
  ]);
  await c.ec2.send(new CreateTagsCommand({ Resources: [sgId], Tags: [{ Key: 'Owner', Value: 'someone' }] }));
  return { repo, endpoint: c.endpoint };
}

for (const [what, env, named] of [
  ['DRIFT_TOFU_BINARY names a missing file', { DRIFT_TOFU_BINARY: '/nonexistent/terraform' }, /\/nonexistent\/terraform/],
  ['neither tofu nor terraform on PATH', { DRIFT_TOFU_BINARY: undefined, PATH: '/usr/bin:/bin' }, /tofu|terraform/],
] as const) {
  t.test(`a runner without a binary (${what}) scans natively and says so`, async (t) => {
    const { repo, endpoint } = await nativeEstate(t);
    withEnv(t, env);
    const out = await detectDrift({ source: { kind: 'git', url: repo, branch: 'main' }, iacPaths: [], provider: 'cloud_a', credentials: CREDENTIALS, endpoint, comparison: 'auto', providerPlans: true });
    t.same(out.drifts.map((d) => [d.resourceAddress, d.comparedBy]), [['aws_security_group.web', 'native']], 'the native change is found');
    t.same(out.stats.comparedBy, { native: 1, provider: 0 });
    t.equal(out.stats.providerPlan?.ran, false, 'no plan ran');
    t.match(out.stats.providerPlan?.reason, named, `the reason names what is missing (${out.stats.providerPlan?.reason})`);
    t.same((out.stats.notCompared ?? []).filter((r) => r.resourceType === 'aws_cloudwatch_dashboard'), [{ resourceType: 'aws_cloudwatch_dashboard', reason: 'no_reader', count: 1 }],
      'notCompared lists the no-reader instance');
  });
}

t.test('a host not allowed to plan (providerPlans false) scans natively and says so', async (t) => {
  const { repo, endpoint } = await nativeEstate(t);
  const out = await detectDrift({ source: { kind: 'git', url: repo, branch: 'main' }, iacPaths: [], provider: 'cloud_a', credentials: CREDENTIALS, endpoint, comparison: 'auto', providerPlans: false });
  t.same(out.drifts.map((d) => [d.resourceAddress, d.comparedBy]), [['aws_security_group.web', 'native']]);
  t.equal(out.stats.providerPlan?.ran, false, 'no plan ran');
  t.ok(out.stats.providerPlan?.reason, `with a reason (${out.stats.providerPlan?.reason})`);
  t.same((out.stats.notCompared ?? []).filter((r) => r.resourceType === 'aws_cloudwatch_dashboard').map((r) => r.reason), ['no_reader']);
});
