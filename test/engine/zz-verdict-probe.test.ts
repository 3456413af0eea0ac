// Terraform's verdict as the yardstick (issue 33 point 5): an estate of 49 AWS types the engine
// reads natively is built in moto by `terraform apply` (verdict/main.tf, region from a variable
// set in terraform.tfvars), changed out of band with the SDK (verdict/changes.ts), then scanned
// by the engine (detectDrift, the SDK path) and by `terraform plan -refresh-only -json`; their
// drifts are compared address by address. Runs when tofu/terraform and the hashicorp/aws
// provider mirror are present, as tofu.test.ts does.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { DescribeImagesCommand } from '@aws-sdk/client-ec2';
import { AWS_READERS } from '../../runner-agent/src/engine/catalogue.ts';
import { detectDrift, type ScanInput } from '../../runner-agent/src/engine/index.ts';
import { findTofu } from '../../runner-agent/src/engine/tofu.ts';
import { CHANGES, SILENT, verdictClients, type StateAttr } from './verdict/changes.ts';
import { MAIN_TF, motoOverride } from './verdict/estate.ts';
import { commitFile, CREDENTIALS, git, motoUrl } from './world.ts';

const mirror = process.env.DRIFT_TF_PLUGIN_MIRROR ?? '/opt/tf-plugins';
const bin = findTofu();
const hasMirror = existsSync(join(mirror, 'registry.terraform.io', 'hashicorp', 'aws'));
const skip = !bin ? 'neither tofu nor terraform on PATH' : !hasMirror ? `no provider mirror at ${mirror}` : false;
// The variable's default is us-east-1 (the credentials' region too): only tfvars says eu-west-2.
const REGION = 'eu-west-2';
// The apply alone waits on the provider's pollers (a load balancer waits a minute): minutes on a busy machine.
t.setTimeout(900_000);

/** Terraform findings the engine does not report, each with its reason (asserted exactly). */
const KNOWN_MISSES: Record<string, string> = {
  // The engine reports a change once, at the resource that declares it (standalone.ts): rules and
  // routes that standalone resources manage are left out of their group's or table's comparison.
  // Terraform's refreshed state holds them in the parent too, so its plan lists the parent as well.
  'aws_route_table.public': 'its 0.0.0.0/0 route is aws_route.world\'s, reported there as deleted (the table\'s `route` is the same change)',
  'aws_security_group.db': 'its rules are aws_security_group_rule.db_in\'s and aws_vpc_security_group_egress_rule.db_out\'s, reported there as deleted (the group\'s `ingress`/`egress` are the same changes)',
};

/** Engine drifts Terraform does not report, each with its reason (asserted exactly). */
const KNOWN_EXTRAS: Record<string, string> = {};

type Json = Record<string, unknown>;

/** resource_drift addresses whose entry changes some attribute (or deletes the resource). */
function terraformFindings(plan: Json): string[] {
  const out: string[] = [];
  for (const e of (plan.resource_drift ?? []) as Json[]) {
    const change = e.change as { actions: string[]; before: Json | null; after: Json | null };
    const changed = change.after === null ? ['(deleted)'] : Object.keys({ ...change.before, ...change.after })
      .filter((k) => JSON.stringify(change.before?.[k]) !== JSON.stringify(change.after?.[k]));
    if (changed.length) out.push(String(e.address));
  }
  return out.sort();
}

t.test('the engine against terraform plan -refresh-only on a 49-type estate', { skip, timeout: 900_000 }, async (t) => {
  const endpoint = motoUrl();
  const c = verdictClients(endpoint, REGION);
  const scratch = mkdtempSync(join(tmpdir(), 'drift-verdict-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const rc = join(scratch, 'cli.tfrc');
  writeFileSync(rc, `provider_installation {\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`);
  const suffix = `v${Date.now().toString(36)}${process.pid}`;
  const ami = (await c.ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }))).Images![0].ImageId!;
  const tfvars = `region = "${REGION}"\nami    = "${ami}"\nsuffix = "${suffix}"\n`;

  // Apply as a user would, endpoints only in an override file of the apply directory.
  const work = join(scratch, 'apply');
  mkdirSync(work);
  writeFileSync(join(work, 'main.tf'), MAIN_TF);
  writeFileSync(join(work, 'terraform.tfvars'), tfvars);
  writeFileSync(join(work, 'moto_override.tf'), motoOverride(endpoint));
  const env = { ...process.env, TF_CLI_CONFIG_FILE: rc, AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey, CHECKPOINT_DISABLE: '1' };
  const tf = (...args: string[]) => new Promise<string>((resolve, reject) =>
    execFile(bin!, args, { cwd: work, env, maxBuffer: 256 * 1024 * 1024 }, (e, stdout, stderr) => (e ? reject(new Error(`${args[0]}: ${stderr || stdout}`)) : resolve(stdout))));
  await tf('init', '-input=false', '-no-color');
  { const s0 = performance.now(); const out = await tf('apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=20'); console.error('APPLY', Math.round(performance.now() - s0)); console.error(out.split('\n').filter((l) => /complete after [0-9]+s|Still/.test(l)).join('\n')); }
  // Settle the state once: right after an apply the provider's next read fills what other
  // resources added (a route table's routes from aws_route, a role's inline policies, `tags`
  // null -> {}), which a refresh-only plan would list as drift of every such resource. A real
  // estate has been refreshed since its apply; this is that refresh.
  console.error('T', Math.round(performance.now())); await tf('apply', '-refresh-only', '-auto-approve', '-input=false', '-no-color', '-parallelism=20');
  console.error('T', Math.round(performance.now())); const state = JSON.parse(readFileSync(join(work, 'terraform.tfstate'), 'utf8')) as { resources: { type: string; name: string; instances: { attributes: Json }[] }[] };
  const managed = state.resources.filter((r) => r.instances.length);
  const types = new Set(managed.map((r) => r.type));
  t.ok(types.size >= 30, `${types.size} types, ${managed.length} resources applied`);
  t.same([...types].filter((type) => !AWS_READERS[type]), [], 'every type has a native reader');
  const attr: StateAttr = (address, key) => {
    const r = managed.find((x) => `${x.type}.${x.name}` === address);
    const v = r?.instances[0].attributes[key];
    if (typeof v !== 'string' || !v) throw new Error(`no ${key} on ${address} in the state`);
    return v;
  };

  // The repository the engine scans: the code, its tfvars and the state the apply wrote.
  git(scratch, 'init', '-q', '-b', 'main', 'repo');
  const repo = join(scratch, 'repo');
  writeFileSync(join(repo, 'terraform.tfvars'), tfvars);
  copyFileSync(join(work, 'terraform.tfstate'), join(repo, 'terraform.tfstate'));
  commitFile(repo, 'main.tf', MAIN_TF);
  const input: ScanInput = { source: { kind: 'git', url: repo, branch: 'main' }, iacPaths: [], provider: 'cloud_a', credentials: CREDENTIALS, endpoint };

  const untouched = await detectDrift(input);
  const untouchedFalse = untouched.drifts.map((d) => `${d.resourceAddress} ${d.diff.map((x) => x.attribute).join(',')}`);
  t.same(untouchedFalse, [], 'nothing reported on the untouched estate');
  t.equal(untouched.resourcesScanned, managed.length, 'every managed resource compared');

  t.ok(CHANGES.length >= 30, `${CHANGES.length} out-of-band changes, ${SILENT.length} Terraform does not report`);
  for (const ch of [...CHANGES, ...SILENT]) {
    try { await ch.run(c, attr, suffix); } catch (e) { throw new Error(`${ch.address} (${ch.what}): ${(e as Error).message}`); }
  }

  let started = performance.now();
  const after = await detectDrift(input);
  const engineMs = performance.now() - started;
  started = performance.now();
  await tf('plan', '-refresh-only', '-input=false', '-no-color', '-parallelism=20', '-out=verdict.plan');
  const plan = JSON.parse(await tf('show', '-json', 'verdict.plan')) as Json;
  const planMs = performance.now() - started;

  console.error('PLAN', Math.round(planMs)); const truth = terraformFindings(plan);
  const engine = [...new Set(after.drifts.map((d) => d.resourceAddress))].sort();
  const found = truth.filter((a) => engine.includes(a));
  const misses = truth.filter((a) => !engine.includes(a));
  const extras = engine.filter((a) => !truth.includes(a));
  const recall = found.length / truth.length;
  const precision = engine.length ? found.length / engine.length : 1;
  t.comment(`recall ${(recall * 100).toFixed(1)}% (${found.length}/${truth.length}), precision ${(precision * 100).toFixed(1)}% (${found.length}/${engine.length}), untouched false positives ${untouchedFalse.length}, wall time engine/plan ${(engineMs / planMs).toFixed(2)} (${Math.round(engineMs)} ms / ${Math.round(planMs)} ms)`);
  for (const m of misses) t.comment(`missed ${m}: ${KNOWN_MISSES[m] ?? 'NOT NAMED'}`);
  for (const x of extras) t.comment(`extra ${x}: ${KNOWN_EXTRAS[x] ?? 'NOT NAMED'} ${JSON.stringify(after.drifts.find((d) => d.resourceAddress === x)?.diff)}`);
  const changed = new Set(CHANGES.map((ch) => ch.address));
  t.same(CHANGES.map((ch) => ch.address).filter((a) => !truth.includes(a) && !KNOWN_MISSES[a]), [], 'Terraform reports every change made (else the change is no yardstick)');
  t.same(truth.filter((a) => !changed.has(a) && !engine.includes(a) && !KNOWN_MISSES[a]), [], 'what Terraform reports beyond the changes made, the engine reports too (or it is named)');
  t.same(misses, Object.keys(KNOWN_MISSES).sort(), 'every miss is named with its reason');
  t.same(extras, Object.keys(KNOWN_EXTRAS).sort(), 'every drift Terraform does not report is named with its reason');
  t.ok(recall >= 0.95, `recall ${recall} >= 95%`);
  t.ok(precision >= 0.98, `precision ${precision} >= 98%`);
});
