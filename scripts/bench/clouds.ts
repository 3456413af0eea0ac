// `npm run bench -- clouds`: a cloud_b and a cloud_c scan of 500 and of 5,000 resources against
// the fake ARM and Google APIs (test/engine/clouds/fakes.ts: the readers' own routes, tokens from
// the fake identity endpoints). The estate is every real corpus instance of a supported type
// (test/engine/corpus*), cloned with unique ids until the size is reached. Each scan runs in a
// fresh child process (its peak RSS is the engine's alone; the fake runs here). Figures: wall
// time, API calls and calls per 1,000 resources, peak RSS, false drifts (must be 0), and how time,
// calls and memory grow from 500 to 5,000.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AZURE_READERS, GOOGLE_READERS, parseState, type StateInstance } from '../../runner-agent/src/engine/tools.ts';
import { detectDrift } from '../../runner-agent/src/engine/index.ts';
import { serviceAccountKey } from '../../test/engine/cloud-auth-fakes.ts';
import { fakeAzure, fakeGoogle } from '../../test/engine/clouds/fakes.ts';
import { fmt, table } from './lib.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const log = (s: string) => process.stderr.write(`${s}\n`);
const SIZES = (process.env.BENCH_CLOUD_SIZES ?? '500,5000').split(',').map(Number);
type Cloud = 'azurerm' | 'google';
const READERS = { azurerm: AZURE_READERS, google: GOOGLE_READERS };

/**
 * The corpus states' instances of types the cloud reads, one group per state: states of one
 * real account (driftctl's bucket IAM cases share a bucket) must not merge in one world.
 */
function samples(cloud: Cloud): StateInstance[][] {
  const dir = path.join(REPO, `test/engine/corpus-${cloud}`);
  // davidgjm's state contradicts itself (corpus-replay.test.ts): its one known drift is left out.
  // inframap's are pruned test fixtures without projects: copied into a project the fake cannot
  // write their self links (a real API can); they replay clean on their own.
  return readdirSync(dir).filter((f) => f.endsWith('.tfstate') && !f.startsWith('davidgjm-') && !f.startsWith('inframap-')).sort()
    .map((f) => parseState(readFileSync(path.join(dir, f), 'utf8'), f).filter((i) => READERS[cloud][i.type]))
    .filter((group) => group.length > 0);
}

/** A copy of `i` whose identifying strings (and, for an IAM grant, its parent's) carry `tag`. */
function copyOf(i: StateInstance, tag: string): StateInstance {
  const a = i.attributes;
  // A copy of a binding lives on its own bucket, topic or project: copies of one role on one parent would merge in one policy.
  const parents = i.type.includes('_iam_') ? [a.bucket, a.topic, a.secret_id, a.repository, a.service, a.project] : [];
  // A service account is named by its account_id, inside its email and id: tagged there, in place.
  // The id's last segment is tagged wherever it stands (a secret's secret_id, a record's name), so a copy stays whole.
  const last = typeof a.id === 'string' ? a.id.split('/').pop() : undefined;
  // A secret version is named by its secret (`.../secrets/S/versions/1`): the secret is tagged, not the version.
  const keys = (typeof a.account_id === 'string' ? [a.account_id] : typeof a.secret === 'string' ? [a.secret, a.secret.split('/').pop()]
    : [a.id, a.self_link, a.name, last, ...parents])
    .filter((v): v is string => typeof v === 'string' && v.length > 2);
  const re = new RegExp([...new Set(keys)].sort((x, y) => y.length - x.length).map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g');
  const text = JSON.stringify(a);
  return { ...i, name: `${i.name}_${tag}`, address: `${i.type}.${i.name}_${tag}`, attributes: JSON.parse(keys.length ? text.replace(re, (m) => `${m}${tag}`) : text) };
}

/** `n` instances: copies of each state's group, each copy (and each state) tagged apart. */
function estate(groups: StateInstance[][], n: number): StateInstance[] {
  const out: StateInstance[] = [];
  for (let copy = 0; out.length < n; copy++) {
    for (const [g, group] of groups.entries()) {
      for (const i of group) {
        if (out.length >= n) return out;
        out.push(copyOf(i, `s${g}c${copy}`));
      }
    }
  }
  return out;
}

/** A parsed sensitive path back in the state's form: get_attr and index steps. */
const steps = (p: string[]) => p.map((s) => (/^\d+$/.test(s) ? { type: 'index', value: { value: Number(s), type: 'number' } } : { type: 'get_attr', value: s }));

function stateText(list: StateInstance[], provider: string): string {
  return JSON.stringify({ version: 4, serial: 1, lineage: 'bench', resources: list.map((i) => ({
    mode: 'managed', type: i.type, name: i.name, provider, instances: [{ attributes: i.attributes, sensitive_attributes: (i.sensitivePaths ?? []).map(steps) }],
  })) });
}

/** Child mode: one scan; prints its figures as JSON. */
async function measureChild(): Promise<void> {
  const input = JSON.parse(process.env.BENCH_SCAN_INPUT!);
  const t0 = performance.now();
  const out = await detectDrift(input);
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({
    ms, compared: out.resourcesScanned, drifts: out.drifts.length, calls: out.stats.sdkCalls, byService: out.stats.sdkCallsByService,
    peakRssMb: process.resourceUsage().maxRSS / 1024, unsupported: out.stats.unsupported, sample: out.drifts.slice(0, 3).map((d) => ({ a: d.resourceAddress, diff: d.diff })),
  }));
}

function child(input: unknown): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [fileURLToPath(import.meta.url), 'child'], { env: { ...process.env, BENCH_SCAN_INPUT: JSON.stringify(input) }, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    c.stdout.on('data', (d: Buffer) => { text += d; });
    c.on('exit', (code) => (code === 0 ? resolve(JSON.parse(text)) : reject(new Error(`scan child exited ${code}`))));
  });
}

async function run(cloud: Cloud, n: number) {
  const list = estate(samples(cloud), n);
  const repo = mkdtempSync(path.join(os.tmpdir(), `drift-bench-${cloud}-`));
  try {
    writeFileSync(path.join(repo, 'main.tf'), '');
    if (cloud === 'azurerm') {
      writeFileSync(path.join(repo, 'terraform.tfstate'), stateText(list, 'provider["registry.terraform.io/hashicorp/azurerm"]'));
      const app = { clientId: 'bench', secret: 'bench-secret' };
      const fake = await fakeAzure(list, app);
      try {
        return await child({ source: { kind: 'path', path: repo }, iacPaths: [], provider: 'cloud_b', endpoint: fake.endpoint, ca: fake.ca,
          credentials: { subscriptionId: '00000000-0000-0000-0000-000000000000', tenantId: 'bench', clientId: app.clientId, clientSecret: app.secret } });
      } finally { await fake.close(); }
    }
    writeFileSync(path.join(repo, 'terraform.tfstate'), stateText(list, 'provider["registry.terraform.io/hashicorp/google"]'));
    const { key, publicKey } = serviceAccountKey();
    const fake = await fakeGoogle(list, { [key.client_email]: publicKey });
    try {
      return await child({ source: { kind: 'path', path: repo }, iacPaths: [], provider: 'cloud_c', endpoint: fake.endpoint, credentials: { projectId: 'bench-project', serviceAccountKey: key } });
    } finally { await fake.close(); }
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rows: (string | number)[][] = [];
  const growth: (string | number)[][] = [];
  for (const cloud of ['azurerm', 'google'] as const) {
    const base = samples(cloud).flat();
    log(`${cloud}: ${base.length} corpus instances of ${new Set(base.map((i) => i.type)).size} supported types`);
    const got: Record<number, Record<string, any>> = {};
    for (const n of SIZES) {
      log(`${cloud}: scanning ${n} resources`);
      const r = (got[n] = await run(cloud, n));
      rows.push([cloud, n, r.compared, fmt(r.ms / 1000), r.calls, fmt((r.calls / r.compared) * 1000), fmt(r.peakRssMb), r.drifts]);
      if (r.drifts) log(`  false drifts, first: ${JSON.stringify(r.sample)}`);
    }
    const [a, b] = [got[SIZES[0]], got[SIZES[SIZES.length - 1]]];
    if (a && b && a !== b) growth.push([cloud, `${SIZES[0]} -> ${SIZES[SIZES.length - 1]}`, fmt(b.compared / a.compared), fmt(b.ms / a.ms), fmt(b.calls / a.calls), fmt(b.peakRssMb / a.peakRssMb)]);
  }
  console.log(['Cloud scans against the fake APIs (one child process per scan; the fake runs in the parent)', '',
    table(['cloud', 'resources', 'compared', 'seconds', 'API calls', 'calls / 1,000', 'peak RSS MB', 'false drifts'], rows), '',
    table(['cloud', 'sizes', 'resources x', 'time x', 'calls x', 'peak RSS x'], growth)].join('\n'));
}

if (process.argv[2] === 'child') await measureChild();
else await main();
