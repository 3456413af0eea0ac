// Terraform's verdict as the yardstick (issue 33 point 5), run on one half of the estate
// (estate.ts): `terraform apply` builds it in moto, the SDK changes it out of band (the half's
// changes), then the engine (detectDrift, the SDK path) and `terraform plan -refresh-only -json`
// scan it and their drifts are compared address by address. The two halves are independent so
// that tap runs them side by side (its per-file limit is 120 s; the load balancer, 60 s of
// provider sleeps in its create, sets the longer half).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { DescribeImagesCommand } from '@aws-sdk/client-ec2';
import { AWS_READERS } from '../../../runner-agent/src/engine/catalogue.ts';
import { detectDrift, type ScanInput } from '../../../runner-agent/src/engine/index.ts';
import { commitFile, CREDENTIALS, git, motoUrl } from '../world.ts';
import { verdictClients, type Change, type StateAttr } from './changes.ts';
import { declaredTypes, HALVES, mainTf, type Half } from './estate.ts';
import { applyDirectory, skip, terraformFindings, type Json } from './terraform.ts';

export interface VerdictPart {
  half: Half;
  /** What the apply must leave in the state, exactly. */
  resources: number;
  types: number;
  /** Out-of-band changes Terraform reports, and changes it does not (the engine must not either). */
  changes: Change[];
  silent: Change[];
  /** Terraform findings the engine does not report, each with its reason (asserted exactly). */
  knownMisses: Record<string, string>;
  /** Engine drifts Terraform does not report, each with its reason (asserted exactly). */
  knownExtras: Record<string, string>;
  /** The least recall this half accepts: with the other half's, what the whole estate accepted (>= 95%, see the test files). */
  minRecall: number;
}

// The variable's default is us-east-1 (the credentials' region too): only tfvars says eu-west-2.
const REGION = 'eu-west-2';
/** The estate's type count, over both halves. */
const ESTATE_TYPES = 49;
/** Above either half's resource count: a refresh reads every resource at once. */
const PARALLELISM = '-parallelism=40';
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Registers the verdict test of one half, after a static check that the halves still cover the estate's types. */
export function verdictTest(part: VerdictPart): void {
  // The one exception to tap's 120 s per file (.taprc): five terraform commands each start the
  // 675 MB provider, and the AWS provider itself sleeps 60 s creating a load balancer and 30 s for
  // a Route 53 zone and record; on a busy 2-CPU machine a half took 144-154 s.
  t.setTimeout(240_000);
  t.test(`the halves declare the estate's ${ESTATE_TYPES} types between them, every one natively read`, async (t) => {
    const [a, b] = HALVES.map((h) => declaredTypes(mainTf(h)));
    t.equal(new Set([...a, ...b]).size, ESTATE_TYPES, `${a.length} + ${b.length} types, ${a.filter((type) => b.includes(type)).length} in both`);
    t.same([...a, ...b].filter((type) => !AWS_READERS[type]), [], 'every declared type has a native reader');
    const declared = new Set([...mainTf(part.half).matchAll(/^resource "([a-z0-9_]+)" "([A-Za-z0-9_-]+)"/gm)].map((m) => `${m[1]}.${m[2]}`));
    t.same(part.changes.map((ch) => ch.address).filter((a) => !declared.has(a)), [], `every change of the ${part.half} half is to a resource it declares`);
  });
  t.test(`the engine against terraform plan -refresh-only on the ${part.half} half of the ${ESTATE_TYPES}-type estate`, { skip }, (t) => compare(t, part));
}

async function compare(t: Test, part: VerdictPart): Promise<void> {
  const endpoint = motoUrl();
  const c = verdictClients(endpoint, REGION);
  const scratch = mkdtempSync(join(tmpdir(), `drift-verdict-${part.half}-`));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const suffix = `v${Date.now().toString(36)}${process.pid}`;
  const hcl = mainTf(part.half);

  // Apply as a user would, endpoints only in an override file of the apply directory; init needs
  // no variables, so it runs while moto lists the AMIs.
  const { work, tf } = applyDirectory(scratch, endpoint, hcl);
  let started = performance.now();
  const [, images] = await Promise.all([tf('init', '-input=false', '-no-color'), c.ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }))]);
  const tfvars = `region = "${REGION}"\nami    = "${images.Images![0].ImageId!}"\nsuffix = "${suffix}"\n`;
  writeFileSync(join(work, 'terraform.tfvars'), tfvars);
  await tf('apply', '-auto-approve', '-input=false', '-no-color', PARALLELISM);
  const applyMs = performance.now() - started;
  // Settle the state once: right after an apply the provider's next read fills what other
  // resources added (a route table's routes from aws_route, a role's inline policies, `tags`
  // null -> {}), which a refresh-only plan would list as drift of every such resource. A real
  // estate has been refreshed since its apply; this is that refresh.
  started = performance.now();
  await tf('apply', '-refresh-only', '-auto-approve', '-input=false', '-no-color', PARALLELISM);
  const settleMs = performance.now() - started;
  const state = JSON.parse(readFileSync(join(work, 'terraform.tfstate'), 'utf8')) as { resources: { type: string; name: string; instances: { attributes: Json }[] }[] };
  const managed = state.resources.filter((r) => r.instances.length);
  const types = new Set(managed.map((r) => r.type));
  t.equal(`${types.size} types, ${managed.length} resources`, `${part.types} types, ${part.resources} resources`, `${types.size} types, ${managed.length} resources applied`);
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
  commitFile(repo, 'main.tf', hcl);
  const input: ScanInput = { source: { kind: 'git', url: repo, branch: 'main' }, iacPaths: [], provider: 'cloud_a', credentials: CREDENTIALS, endpoint };

  const untouched = await detectDrift(input);
  const untouchedFalse = untouched.drifts.map((d) => `${d.resourceAddress} ${d.diff.map((x) => x.attribute).join(',')}`);
  t.same(untouchedFalse, [], 'nothing reported on the untouched estate');
  t.equal(untouched.resourcesScanned, managed.length, 'every managed resource compared');

  // As many changes, for the types applied, as the whole estate had (30 or more for 49 types).
  t.ok(part.changes.length >= 0.6 * part.types && part.silent.length > 0, `${part.changes.length} out-of-band changes, ${part.silent.length} Terraform does not report`);
  for (const ch of [...part.changes, ...part.silent]) {
    try { await ch.run(c, attr, suffix); } catch (e) { throw new Error(`${ch.address} (${ch.what}): ${(e as Error).message}`); }
  }

  started = performance.now();
  const after = await detectDrift(input);
  const engineMs = performance.now() - started;
  started = performance.now();
  await tf('plan', '-refresh-only', '-input=false', '-no-color', PARALLELISM, '-out=verdict.plan');
  const plan = JSON.parse(await tf('show', '-json', 'verdict.plan')) as Json;
  const planMs = performance.now() - started;

  const truth = terraformFindings(plan);
  const engine = [...new Set(after.drifts.map((d) => d.resourceAddress))].sort();
  const found = truth.filter((a) => engine.includes(a));
  const misses = truth.filter((a) => !engine.includes(a));
  const extras = engine.filter((a) => !truth.includes(a));
  const recall = found.length / truth.length;
  const precision = engine.length ? found.length / engine.length : 1;
  t.comment(`recall ${(recall * 100).toFixed(1)}% (${found.length}/${truth.length}), precision ${(precision * 100).toFixed(1)}% (${found.length}/${engine.length}), untouched false positives ${untouchedFalse.length}, wall time engine/plan ${(engineMs / planMs).toFixed(2)} (${Math.round(engineMs)} ms / ${Math.round(planMs)} ms)`);
  t.comment(`terraform: init + apply ${seconds(applyMs)}, settling refresh ${seconds(settleMs)}, plan + show ${seconds(planMs)}`);
  for (const m of misses) t.comment(`missed ${m}: ${part.knownMisses[m] ?? 'NOT NAMED'}`);
  for (const x of extras) t.comment(`extra ${x}: ${part.knownExtras[x] ?? 'NOT NAMED'} ${JSON.stringify(after.drifts.find((d) => d.resourceAddress === x)?.diff)}`);
  const changed = new Set(part.changes.map((ch) => ch.address));
  t.same(part.changes.map((ch) => ch.address).filter((a) => !truth.includes(a) && !part.knownMisses[a]), [], 'Terraform reports every change made (else the change is no yardstick)');
  t.same(truth.filter((a) => !changed.has(a) && !engine.includes(a) && !part.knownMisses[a]), [], 'what Terraform reports beyond the changes made, the engine reports too (or it is named)');
  t.same(misses, Object.keys(part.knownMisses).sort(), 'every miss is named with its reason');
  t.same(extras, Object.keys(part.knownExtras).sort(), 'every drift Terraform does not report is named with its reason');
  t.ok(recall >= part.minRecall, `recall ${recall} >= ${part.minRecall * 100}%`);
  t.ok(precision >= 0.98, `precision ${precision} >= 98%`);
}
