// Benchmark of the issue #11 readers (npx tsx scripts/bench/readers.ts):
//  1. SDK calls per 1,000 resources of each new type: the moto estate's instance of each type
//     cloned 1,000 times (unique ids), compared through the replay fake (same readers, same SDK
//     request path; the fake answers every listing in one page, so paged listings are noted);
//  2. scan time of a mixed estate against a private moto: 10,000 real resources of the new types,
//     scanned as a 1,000-instance prefix of every kind and as the whole, with moto's CPU share.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMoto as startPrivateMoto } from './private-moto.ts';
import { AWS_READERS, replayState } from '../../runner-agent/src/engine/tools.ts';
import { detectDrift } from '../../runner-agent/src/engine/index.ts';
import { buildNetwork, type Res } from '../../test/engine/estate-network.ts';
import { buildPlatform } from '../../test/engine/estate-platform.ts';
import { buildServices } from '../../test/engine/estate-services.ts';
import { buildMixed } from './readers-estate.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = path.resolve(process.env.DRIFT_DATA_DIR ?? path.join(REPO, '.data'));
const log = (s: string) => process.stderr.write(`${s}\n`);
const stateDoc = (list: Res[]) => JSON.stringify({ version: 4, serial: 1, lineage: 'bench', outputs: {}, resources: list.map((r) => ({
  mode: 'managed', type: r.type, name: r.name, provider: 'provider["registry.terraform.io/hashicorp/aws"]',
  instances: [{ schema_version: 0, attributes: r.attributes, sensitive_attributes: [] }],
})) });

const startMoto = () => startPrivateMoto(REPO, DATA, 'moto-bench-readers.log', log);

function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch { return Number.NaN; }
}

/** `n` copies of one instance: every string holding one of its identifying values gets a copy number. */
function clones(r: Res, n: number): Res[] {
  const a = r.attributes;
  const keys = [a.id, a.arn, a.name, a.key_name, a.identifier, a.function_name, a.url, a.allocation_id, a.fqdn].filter((v): v is string => typeof v === 'string' && v.length > 3);
  const text = JSON.stringify(a);
  // One pass, longest value first, so a value inside another (a queue's name in its URL) is renamed once.
  const re = new RegExp([...new Set(keys)].sort((x, y) => y.length - x.length).map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g');
  return Array.from({ length: n }, (_, i) => ({
    type: r.type, name: `${r.name}_${i}`, attributes: JSON.parse(text.replace(re, (m) => `${m}x${i}`)) as Record<string, unknown>,
  }));
}

async function callsPerThousand(endpoint: string): Promise<{ type: string; calls: number; byService: Record<string, number>; drifts: number }[]> {
  const suffix = `b${Date.now().toString(36)}`;
  const net = await buildNetwork(endpoint, suffix);
  const lt = String(net.resources.find((r) => r.type === 'aws_launch_template')!.attributes.id);
  const all = [...net.resources, ...(await buildServices(endpoint, suffix)).resources, ...(await buildPlatform(endpoint, suffix, net.ids, lt)).resources];
  net.ec2.destroy();
  const rows = [];
  const seen = new Set<string>();
  for (const r of all) {
    if (seen.has(r.type) || !AWS_READERS[r.type]) continue;
    seen.add(r.type);
    // A route table association or route is read through its table: clones share the template's table.
    const out = await replayState(stateDoc(clones(r, 1000)), `${r.type} x1000`);
    rows.push({ type: r.type, calls: Object.values(out.sdkCallsByService).reduce((x, y) => x + y, 0), byService: out.sdkCallsByService, drifts: out.drifts.length });
  }
  return rows;
}

async function main(): Promise<void> {
  const moto = await startMoto();
  const repo = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-readers-'));
  try {
    log('part 1: SDK calls per 1,000 instances of each type (replay fake)');
    // BENCH_READERS_SKIP_CALLS=1 measures the mixed scans only.
    const calls = process.env.BENCH_READERS_SKIP_CALLS ? [] : await callsPerThousand(moto.endpoint);
    const max = Number(process.env.BENCH_READERS_MAX ?? 10_000);
    log(`part 2: building a mixed estate of ${max} resources in moto`);
    const t0 = performance.now();
    const kinds = await buildMixed(moto.endpoint, max, log);
    const buildSecs = (performance.now() - t0) / 1000;
    writeFileSync(path.join(repo, 'main.tf'), 'provider "aws" {\n  region = "us-east-1"\n}\n');
    const rows = [];
    for (const size of [1000, max]) {
      const list = Object.values(kinds).flatMap((l) => l.slice(0, Math.round((l.length * size) / max)));
      writeFileSync(path.join(repo, `state-${size}.json`), stateDoc(list));
      const motoCpu0 = procCpuMs(moto.pid);
      const s0 = performance.now();
      const out = await detectDrift({ source: { kind: 'path', path: repo }, iacPaths: [], provider: 'cloud_a', endpoint: moto.endpoint,
        credentials: { accessKeyId: 'bench', secretAccessKey: 'bench', region: 'us-east-1' }, statePath: `state-${size}.json` });
      rows.push({ size, scanned: out.resourcesScanned, drifts: out.drifts.length, wallMs: Math.round(performance.now() - s0),
        motoCpuMs: Math.round(procCpuMs(moto.pid) - motoCpu0), sdkCalls: out.stats.sdkCalls, byService: out.stats.sdkCallsByService });
      log(`scanned ${size}: ${JSON.stringify(rows.at(-1))}`);
      for (const d of out.drifts.slice(0, 5)) log(`  drift ${d.resourceAddress}: ${JSON.stringify(d.diff).slice(0, 300)}`);
    }
    const lines = [
      `Readers benchmark: node ${process.version}, ${os.cpus().length} CPUs, private moto`,
      'SDK calls per 1,000 instances of one type (replay fake, same readers and SDK path):',
      ...calls.map((c) => `  ${c.type.padEnd(32)} ${String(c.calls).padStart(6)}  ${Object.entries(c.byService).map(([k, v]) => `${k}:${v}`).join(' ')}${c.drifts ? `  (${c.drifts} drifts)` : ''}`),
      `Mixed estate of ${max} resources built in moto in ${buildSecs.toFixed(0)}s; scans:`,
      ...rows.map((r) => `  ${String(r.size).padStart(6)} resources: ${r.scanned} compared, ${r.drifts} drifts, wall ${(r.wallMs / 1000).toFixed(1)}s, moto CPU ${(r.motoCpuMs / 1000).toFixed(1)}s, ${r.sdkCalls} SDK calls (${Object.entries(r.byService).map(([k, v]) => `${k}:${v}`).join(' ')})`),
      `  growth 1,000 -> ${max}: wall x${(rows[1].wallMs / rows[0].wallMs).toFixed(2)}, calls x${(rows[1].sdkCalls / rows[0].sdkCalls).toFixed(2)}`,
    ];
    console.log(lines.join('\n'));
    mkdirSync(path.join(DATA, 'bench'), { recursive: true });
    writeFileSync(path.join(DATA, 'bench', `readers-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), `${JSON.stringify({ calls, buildSecs, rows }, null, 2)}\n`);
  } finally {
    moto.stop();
    rmSync(repo, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(`bench readers: ${e instanceof Error ? e.stack : String(e)}`);
  process.exit(1);
});
