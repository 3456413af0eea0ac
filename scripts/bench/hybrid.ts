// Hybrid-scan benchmark (issue 34 "Targets"): on an estate where 20% of the instances have no
// native reader (hybrid-estate.ts), the wall time of a hybrid scan (detectDrift, comparison
// `auto`: native readers, then one refresh-only plan targeted at the no-reader addresses)
// against a full `terraform plan -refresh-only` + `show -json` run by hand in the initialized
// working directory the estate was applied from (terraform's default parallelism, as a user runs
// it), and against the engine's own full plan (comparison `provider`: a scratch copy, init, plan,
// show). API calls are the requests the benchmark's private moto logged during each run. The
// findings are compared as sets of addresses.
//   npm run bench -- hybrid                       (BENCH_HYBRID_SIZES=500,5000 by default)
//   node scripts/bench/hybrid.ts 500,1000,5000    (sizes as an argument)
// Each size gets its own moto and its own estate. BENCH_HYBRID_PARALLELISM (default 30) sets
// the building apply's -parallelism. BENCH_HYBRID_KEEP=1 keeps each estate and its moto running
// (recorded in .data/bench/hybrid-estate-<size>.json) for the next run to measure again without
// rebuilding; BENCH_HYBRID_BUILD_ONLY=1 builds and stops there (stop a kept moto by the pid its
// file records). Needs terraform/tofu and the hashicorp/aws provider mirror.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectDrift, type ScanOutcome } from '../../runner-agent/src/engine/index.ts';
import { findTofu } from '../../runner-agent/src/engine/tools.ts';
import { changeOutOfBand, counts, CREDS, mainTf, MIX, terraform, writeCliConfig } from './hybrid-estate.ts';
import { startMoto } from './private-moto.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = path.resolve(process.env.DRIFT_DATA_DIR ?? path.join(REPO, '.data'));
const MIRROR = process.env.DRIFT_TF_PLUGIN_MIRROR ?? '/opt/tf-plugins';
const log = (s: string) => process.stderr.write(`bench hybrid: ${s}\n`);
const secs = (ms: number) => Math.round(ms / 100) / 10;
type Json = Record<string, unknown>;

/** Requests a moto log holds past `from` bytes (werkzeug writes one line per request). */
function requestsSince(file: string, from: number): number {
  const text = readFileSync(file).subarray(from).toString('utf8');
  return (text.match(/" \d{3} /g) ?? []).length;
}

/** resource_drift addresses whose entry changes some attribute or deletes the instance (as terraform-verdict.test.ts reads it). */
function planFindings(plan: Json): string[] {
  const out: string[] = [];
  for (const e of (plan.resource_drift ?? []) as Json[]) {
    const change = e.change as { before: Json | null; after: Json | null };
    const changed = change.after === null || Object.keys({ ...change.before, ...change.after })
      .some((k) => JSON.stringify(change.before?.[k]) !== JSON.stringify(change.after?.[k]));
    if (changed) out.push(String(e.address));
  }
  return out.sort();
}

interface Row {
  size: number; noReader: number; changed: number; applySecs: number; settleSecs: number;
  fullPlanSecs: number; fullPlanCalls: number; fullPlanFindings: number;
  hybridSecs: number; nativeSecs: number; hybridCalls: number; hybridSdkCalls: number; hybridPlanSecs: number | null; hybridFindings: number;
  comparedBy: Record<string, number>; providerPlan: unknown; ratio: number; callRatio: number;
  missedVsPlan: string[]; extraVsPlan: string[]; missedVsChanges: string[];
  engineProviderSecs: number | null; engineProviderCalls: number | null; engineProviderFindings: number | null; ratioVsEngineProvider: number | null;
}

interface Built {
  size: number; endpoint: string; motoPid: number; scratch: string; work: string; repo: string; rc: string; logName: string;
  changed: string[]; applySecs: number; settleSecs: number;
}
const keptFile = (size: number) => path.join(DATA, 'bench', `hybrid-estate-${size}.json`);
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const userEnv = (rc: string, endpoint: string) => ({ ...process.env, TF_CLI_CONFIG_FILE: rc, AWS_ENDPOINT_URL: endpoint, AWS_ACCESS_KEY_ID: CREDS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: CREDS.secretAccessKey, AWS_REGION: CREDS.region, CHECKPOINT_DISABLE: '1' });

/** Applies, settles and changes the estate in a private moto of its own. */
async function build(size: number, bin: string): Promise<Built> {
  const n = counts(size);
  const logName = `moto-bench-hybrid-${size}.log`;
  const moto = await startMoto(REPO, DATA, logName, log);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-hybrid-'));
  const rc = writeCliConfig(scratch, MIRROR);
  const work = path.join(scratch, 'work');
  mkdirSync(work);
  writeFileSync(path.join(work, 'main.tf'), mainTf(n));
  const tf = terraform(work, userEnv(rc, moto.endpoint), bin);
  await tf('init', '-input=false', '-no-color');
  const parallelism = Number(process.env.BENCH_HYBRID_PARALLELISM ?? 30);
  log(`${size}: applying ${JSON.stringify(n)} (-parallelism=${parallelism})`);
  let t0 = performance.now();
  await tf('apply', '-auto-approve', '-input=false', '-no-color', `-parallelism=${parallelism}`);
  const applySecs = secs(performance.now() - t0);
  t0 = performance.now();
  await tf('apply', '-refresh-only', '-auto-approve', '-input=false', '-no-color', `-parallelism=${parallelism}`);
  const settleSecs = secs(performance.now() - t0);
  log(`${size}: applied in ${applySecs}s, settled in ${settleSecs}s`);

  // The repository a scan reads: the code and the settled state, committed.
  const repo = path.join(scratch, 'repo');
  mkdirSync(repo);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd: repo, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  copyFileSync(path.join(work, 'main.tf'), path.join(repo, 'main.tf'));
  copyFileSync(path.join(work, 'terraform.tfstate'), path.join(repo, 'terraform.tfstate'));
  git('add', '-A');
  git('commit', '-q', '-m', 'estate');
  const changes = await changeOutOfBand(moto.endpoint, JSON.parse(readFileSync(path.join(repo, 'terraform.tfstate'), 'utf8')));
  log(`${size}: ${changes.native.length} native and ${changes.provider.length} no-reader instances changed out of band`);
  return { size, endpoint: moto.endpoint, motoPid: moto.pid, scratch, work, repo, rc, logName, changed: [...changes.native, ...changes.provider].sort(), applySecs, settleSecs };
}

/**
 * The estate of a size: one kept by an earlier run with BENCH_HYBRID_KEEP=1 when its moto still
 * runs (nothing a measurement does changes the estate: refresh-only plans, no lock, no apply),
 * else a new one.
 */
async function estate(size: number, bin: string): Promise<Built> {
  if (existsSync(keptFile(size))) {
    const kept = JSON.parse(readFileSync(keptFile(size), 'utf8')) as Built;
    if (alive(kept.motoPid) && existsSync(kept.repo)) { log(`${size}: reusing the estate kept in ${kept.scratch}`); return kept; }
    rmSync(keptFile(size));
  }
  const built = await build(size, bin);
  if (process.env.BENCH_HYBRID_KEEP === '1') {
    mkdirSync(path.dirname(keptFile(size)), { recursive: true });
    writeFileSync(keptFile(size), JSON.stringify(built, null, 2));
  }
  return built;
}

function discard(b: Built): void {
  if (process.env.BENCH_HYBRID_KEEP === '1') return;
  try { process.kill(b.motoPid, 'SIGTERM'); } catch { /* already gone */ }
  rmSync(b.scratch, { recursive: true, force: true });
  rmSync(keptFile(b.size), { force: true });
}

async function measure(size: number, bin: string): Promise<Row | null> {
  const n = counts(size);
  const noReader = MIX.filter((m) => !m.native).reduce((a, m) => a + n[m.name], 0);
  const b = await estate(size, bin);
  const { repo, rc, changed, applySecs, settleSecs } = b;
  const moto = { endpoint: b.endpoint };
  const motoLog = path.join(DATA, 'logs', b.logName);
  const tf = terraform(b.work, userEnv(rc, b.endpoint), bin);
  let t0: number;
  try {
    if (process.env.BENCH_HYBRID_BUILD_ONLY === '1') return null;
    // A. the full refresh-only plan, as a user runs it.
    let mark = statSync(motoLog).size;
    t0 = performance.now();
    await tf('plan', '-refresh-only', '-input=false', '-lock=false', '-no-color', '-out=full.tfplan');
    const full = JSON.parse(await tf('show', '-json', 'full.tfplan')) as Json;
    const fullPlanMs = performance.now() - t0;
    const fullPlanCalls = requestsSince(motoLog, mark);
    const truth = planFindings(full);
    log(`${size}: full plan ${secs(fullPlanMs)}s, ${fullPlanCalls} calls, ${truth.length} findings`);

    // B. the hybrid scan.
    process.env.TF_CLI_CONFIG_FILE = rc;
    const scan = (comparison: 'auto' | 'native' | 'provider') => detectDrift({ source: { kind: 'git', url: repo, branch: 'main' }, iacPaths: [], provider: 'cloud_a',
      credentials: CREDS, endpoint: moto.endpoint, comparison, providerPlans: true });
    mark = statSync(motoLog).size;
    t0 = performance.now();
    const hybrid: ScanOutcome = await scan('auto');
    const hybridMs = performance.now() - t0;
    const hybridCalls = requestsSince(motoLog, mark);
    const found = [...new Set(hybrid.drifts.map((d) => d.resourceAddress))].sort();
    log(`${size}: hybrid ${secs(hybridMs)}s, ${hybridCalls} calls, ${found.length} findings, plan ${JSON.stringify(hybrid.stats.providerPlan)}`);

    // C. the native half alone (comparison native), to tell it from the plan's share.
    t0 = performance.now();
    await scan('native');
    const nativeMs = performance.now() - t0;
    log(`${size}: native only ${secs(nativeMs)}s`);

    // D. the engine's full plan (comparison provider), unless BENCH_HYBRID_PROVIDER=0.
    let engine: { ms: number; calls: number; findings: number } | null = null;
    if (process.env.BENCH_HYBRID_PROVIDER !== '0') {
      mark = statSync(motoLog).size;
      t0 = performance.now();
      const viaPlan = await scan('provider');
      engine = { ms: performance.now() - t0, calls: requestsSince(motoLog, mark), findings: new Set(viaPlan.drifts.map((d) => d.resourceAddress)).size };
      log(`${size}: engine provider ${secs(engine.ms)}s, ${engine.calls} calls, ${engine.findings} findings (${viaPlan.stats.providerPlan?.reason ?? 'ran'})`);
    }
    return {
      size, noReader, changed: changed.length, applySecs, settleSecs,
      fullPlanSecs: secs(fullPlanMs), fullPlanCalls, fullPlanFindings: truth.length,
      hybridSecs: secs(hybridMs), nativeSecs: secs(nativeMs), hybridCalls, hybridSdkCalls: hybrid.stats.sdkCalls,
      hybridPlanSecs: hybrid.stats.providerPlan ? secs(hybrid.stats.providerPlan.durationMs) : null, hybridFindings: found.length,
      comparedBy: hybrid.stats.comparedBy, providerPlan: hybrid.stats.providerPlan,
      ratio: Math.round((hybridMs / fullPlanMs) * 100) / 100, callRatio: Math.round((hybridCalls / fullPlanCalls) * 100) / 100,
      missedVsPlan: truth.filter((a) => !found.includes(a)), extraVsPlan: found.filter((a) => !truth.includes(a)),
      missedVsChanges: changed.filter((a) => !found.includes(a)),
      engineProviderSecs: engine ? secs(engine.ms) : null, engineProviderCalls: engine?.calls ?? null, engineProviderFindings: engine?.findings ?? null,
      ratioVsEngineProvider: engine ? Math.round((hybridMs / engine.ms) * 100) / 100 : null,
    };
  } finally {
    delete process.env.TF_CLI_CONFIG_FILE;
    discard(b);
  }
}

const pad = (cells: (string | number | null)[], widths: number[]) => cells.map((c, i) => String(c ?? '-').padStart(widths[i])).join('  ');

async function main(): Promise<void> {
  const bin = findTofu();
  if (!bin) throw new Error('neither tofu nor terraform on PATH (or DRIFT_TOFU_BINARY): the benchmark needs one');
  if (!existsSync(path.join(MIRROR, 'registry.terraform.io', 'hashicorp', 'aws'))) throw new Error(`no hashicorp/aws provider mirror at ${MIRROR} (DRIFT_TF_PLUGIN_MIRROR)`);
  const arg = process.argv[2] && /^[\d,]+$/.test(process.argv[2]) ? process.argv[2] : undefined;
  const sizes = (arg ?? process.env.BENCH_HYBRID_SIZES ?? '500,5000').split(',').map(Number).filter((x) => x > 0).sort((a, b) => a - b);
  const loadAvg = os.loadavg();
  const version = execFileSync(bin, ['version'], { env: { ...process.env, CHECKPOINT_DISABLE: '1' }, stdio: ['ignore', 'pipe', 'ignore'] }).toString().split('\n')[0];
  const rows: Row[] = [];
  for (const size of sizes) { const r = await measure(size, bin); if (r) rows.push(r); }
  if (!rows.length) return;
  const widths = [6, 9, 7, 8, 8, 8, 8, 8, 7, 8, 8, 8, 7];
  const lines = [
    `Hybrid scan benchmark: ${version}, node ${process.version}, ${os.cpus().length} CPUs, load average before ${loadAvg.map((l) => l.toFixed(2)).join(' ')}, a private moto per size`,
    pad(['size', 'no-reader', 'changed', 'apply s', 'plan s', 'plan calls', 'hybrid s', 'hyb calls', 'ratio', 'call ratio', 'engine-prov s', 'hyb/eng-prov', 'found all'], widths),
    ...rows.map((r) => pad([r.size, r.noReader, r.changed, r.applySecs, r.fullPlanSecs, r.fullPlanCalls, r.hybridSecs, r.hybridCalls, r.ratio, r.callRatio,
      r.engineProviderSecs, r.ratioVsEngineProvider, r.missedVsPlan.length === 0 ? 'yes' : `NO (${r.missedVsPlan.length} missed)`], widths)),
    'plan s: terraform plan -refresh-only + show -json in the initialized apply directory (default parallelism); hybrid s: detectDrift comparison auto;',
    'engine-prov s: detectDrift comparison provider (copy, init, full plan, show); calls: requests the private moto logged in the run;',
    `ratio = hybrid s / plan s (target <= 0.35): ${rows.map((r) => `${r.size}: ${r.ratio} ${r.ratio <= 0.35 ? 'met' : 'NOT met'}`).join(', ')}`,
    ...rows.flatMap((r) => [
      `${r.size}: comparedBy ${JSON.stringify(r.comparedBy)}, hybrid plan ${r.hybridPlanSecs ?? '-'} s, native alone ${r.nativeSecs} s, engine SDK calls ${r.hybridSdkCalls}; findings plan ${r.fullPlanFindings}, hybrid ${r.hybridFindings}, of ${r.changed} changed`,
      ...(r.missedVsPlan.length ? [`  missed (the plan found, the hybrid scan did not): ${r.missedVsPlan.slice(0, 20).join(' ')}`] : []),
      ...(r.extraVsPlan.length ? [`  extra (the hybrid scan found, the plan did not): ${r.extraVsPlan.slice(0, 20).join(' ')}`] : []),
      ...(r.missedVsChanges.length ? [`  changes made the hybrid scan did not report: ${r.missedVsChanges.slice(0, 20).join(' ')}`] : []),
    ]),
  ];
  console.log(lines.join('\n'));
  const outDir = path.join(DATA, 'bench');
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `hybrid-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ binary: version, node: process.version, cpus: os.cpus().length, loadAvg, rows }, null, 2)}\n`);
  log(`wrote ${file}`);
}

// exit explicitly: a kept estate's moto is a child this process must not wait for.
main().then(() => process.exit(0), (e: unknown) => {
  console.error(`bench hybrid: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
