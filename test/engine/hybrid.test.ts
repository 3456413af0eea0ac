// Hybrid scans end to end (issue 34 points 1, 2 and 5): terraform applies an estate of natively
// read types and types with no reader into moto (hybrid/estate.ts), the state committed in the
// repository; out-of-band changes hit both kinds; one scan with comparison `auto` finds every
// change, the native ones through the engine's readers and the rest through one refresh-only
// plan targeted at the no-reader addresses, each drift saying how it was compared. `native`
// never plans and says why; `provider` compares everything through the plan. The plans run
// through a wrapper binary that logs its command lines, in a private TMPDIR: nothing is left
// there and the secret key is in no file and on no command line. Runs when terraform and the
// hashicorp/aws provider mirror are present, as tofu.test.ts does.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { detectDrift, type DetectedDrift, type ScanInput, type ScanOutcome } from '../../runner-agent/src/engine/index.ts';
import { applyEstate, changeOutOfBand, NATIVE, NO_READER, NO_READER_TYPES, SKIP, TERRAFORM, writeCliConfig, type Estate } from './hybrid/estate.ts';
import { motoUrl, REGION } from './world.ts';

/** Every file under dir (recursively), for the leak checks. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

const byAddress = (ds: DetectedDrift[]) => Object.fromEntries(ds.map((d) => [d.resourceAddress, d.comparedBy]));
const addresses = (ds: DetectedDrift[]) => ds.map((d) => d.resourceAddress).sort();
const noReaderRows = (o: ScanOutcome) => (o.stats.notCompared ?? []).filter((r) => NO_READER_TYPES.includes(r.resourceType));

t.test('hybrid scans: native readers plus one targeted refresh-only plan', { skip: SKIP }, async (t) => {
  const endpoint = motoUrl();
  const scratch = mkdtempSync(join(tmpdir(), 'drift-hybrid-test-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  // A secret no other file on the machine holds: moto takes any secret key.
  const secret = `hybrid-secret-${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  const creds = { accessKeyId: 'testing', secretAccessKey: secret, region: REGION };
  const rc = writeCliConfig(scratch);
  const estate: Estate = await applyEstate(scratch, rc, endpoint, creds);

  // The scans' environment: the CLI config, a private TMPDIR (the engine's scratch copies and
  // terraform's own temporary files land there), and a wrapper binary logging its argv.
  const privateTmp = join(scratch, 'tmp');
  mkdirSync(privateTmp);
  const argvLog = join(scratch, 'argv.log');
  mkdirSync(join(scratch, 'bin'));
  const wrapper = join(scratch, 'bin', 'terraform');
  writeFileSync(wrapper, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${argvLog}'\nexec '${TERRAFORM}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  const saved = { TF_CLI_CONFIG_FILE: process.env.TF_CLI_CONFIG_FILE, TMPDIR: process.env.TMPDIR, DRIFT_TOFU_BINARY: process.env.DRIFT_TOFU_BINARY };
  Object.assign(process.env, { TF_CLI_CONFIG_FILE: rc, TMPDIR: privateTmp, DRIFT_TOFU_BINARY: wrapper });
  t.teardown(() => { for (const [k, v] of Object.entries(saved)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; } });
  t.equal(tmpdir(), privateTmp, 'os.tmpdir() follows TMPDIR');

  const input = (over: Partial<ScanInput> = {}): ScanInput => ({
    source: { kind: 'git', url: estate.repo, branch: 'main' }, iacPaths: [], provider: 'cloud_a', credentials: creds, endpoint,
    comparison: 'auto', providerPlans: true, ...over,
  });
  const leftInTmp = () => readdirSync(privateTmp);

  const clean = await detectDrift(input());
  t.same(clean.drifts.map((d) => `${d.resourceAddress} ${d.diff.map((x) => x.attribute).join(',')}`), [], 'auto: no drift on the untouched estate (the plan path adds no noise)');
  t.same(clean.stats.comparedBy, { native: NATIVE.length, provider: NO_READER.length }, 'auto: native readers compare theirs, the plan the rest');
  t.equal(clean.resourcesScanned, NATIVE.length + NO_READER.length, 'every managed instance compared');
  t.same(leftInTmp(), [], 'nothing left in TMPDIR after the clean scan');

  await changeOutOfBand(estate, endpoint);

  // ---- comparison auto: one scan finds all six, each compared by the right side -------------
  const auto = await detectDrift(input());
  t.same(leftInTmp(), [], 'nothing left in TMPDIR after the scan with drifts');
  t.same(addresses(auto.drifts), [...NATIVE, ...NO_READER].sort(), 'auto: every out-of-band change found, each address once');
  t.same(byAddress(auto.drifts), { ...Object.fromEntries(NATIVE.map((a) => [a, 'native'])), ...Object.fromEntries(NO_READER.map((a) => [a, 'provider'])) },
    'auto: natively read instances by the readers, no-reader instances by the plan (native wins, nothing reported twice)');
  const one = (a: string) => auto.drifts.find((d) => d.resourceAddress === a);
  t.equal(one('aws_ssm_document.setup')?.changeType, 'deleted', 'the deleted document is reported deleted');
  t.same(one('aws_route53_health_check.web')?.diff.map((d) => [d.attribute, d.before, d.after]), [['failure_threshold', 3, 5]], 'the health check diff is the one attribute changed');
  t.same(one('aws_cloudwatch_dashboard.main')?.diff.map((d) => d.attribute), ['dashboard_body'], 'the dashboard diff names dashboard_body');
  t.equal(one('aws_security_group.web')?.severity, 'critical', 'the same severity rules apply (22 open to the world)');
  t.same(one('aws_cloudwatch_metric_alarm.cpu')?.diff.map((d) => [d.attribute, d.before, d.after]), [['threshold', 80, 95]], 'the alarm diff from the native reader');
  t.same(auto.stats.comparedBy, { native: NATIVE.length, provider: NO_READER.length }, 'auto: stats.comparedBy counts each side');
  t.equal(auto.stats.comparedBy.native + auto.stats.comparedBy.provider, auto.resourcesScanned, 'and the counts add up to the instances compared');
  t.match(auto.stats.providerPlan, { ran: true, targets: NO_READER.length, compared: NO_READER.length, binary: /^terraform 1\.\d+\.\d+$/ }, `one plan, targeted at the no-reader addresses (${auto.stats.providerPlan?.reason ?? 'no reason given'})`);
  t.same(noReaderRows(auto), [], 'notCompared no longer lists the no-reader types');

  // ---- comparison native: never a plan, says so, the no-reader instances not compared -------
  const native = await detectDrift(input({ comparison: 'native' }));
  t.same(addresses(native.drifts), [...NATIVE].sort(), 'native: only the natively read changes');
  t.ok(native.drifts.every((d) => d.comparedBy === 'native'), 'each compared natively');
  t.equal(native.stats.providerPlan?.ran, false, 'native: no plan ran');
  t.match(native.stats.providerPlan?.reason, /native/, `native: the reason says so (${native.stats.providerPlan?.reason})`);
  t.same(noReaderRows(native).map((r) => [r.resourceType, r.reason, r.count]).sort(), NO_READER_TYPES.map((type) => [type, 'no_reader', 1]).sort(),
    'native: notCompared lists each no-reader type as no_reader');
  t.same(native.stats.comparedBy, { native: NATIVE.length, provider: 0 });

  // ---- comparison provider: everything through the plan, as the plan-based products do ------
  const provider = await detectDrift(input({ comparison: 'provider' }));
  t.same(addresses(provider.drifts), [...NATIVE, ...NO_READER].sort(), 'provider: every change found through the plan');
  t.ok(provider.drifts.every((d) => d.comparedBy === 'provider'), 'each compared by the provider');
  t.same(provider.stats.comparedBy, { native: 0, provider: NATIVE.length + NO_READER.length }, 'provider: stats.comparedBy all provider');
  t.match(provider.stats.providerPlan, { ran: true }, `provider: the plan ran (${provider.stats.providerPlan?.reason ?? 'no reason given'})`);
  t.same(leftInTmp(), [], 'nothing left in TMPDIR after every scan');

  // ---- no credential on a command line or in a file left behind ----------------------------
  const argv = readFileSync(argvLog, 'utf8');
  t.match(argv, /plan -refresh-only/, 'the wrapper saw the plans');
  t.match(argv, /-target[= ]aws_route53_health_check\.web/, 'auto targeted the no-reader addresses');
  t.notMatch(argv, /-target[= ]aws_security_group\.web/, 'and not the natively read ones');
  t.notOk(argv.includes(secret), 'the secret key is on no command line');
  const leaking = filesUnder(privateTmp).filter((f) => statSync(f).size < 64 << 20 && readFileSync(f).includes(secret));
  t.same(leaking, [], 'the secret key is in no file under TMPDIR');
});
