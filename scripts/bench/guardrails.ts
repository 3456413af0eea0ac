// `npm run bench -- guardrails`: a plan of 5,000 resource changes against 50 deployed guardrails
// (issue 17), and how it grows from 500. Two parts:
//  a. the evaluation itself (plugins/guardrails/plan.ts), each size in a child process of its
//     own so memory figures are that size's: median time of 5 runs, heap growth while the
//     result is held, peak RSS. Baseline in the same child: JSON.parse of the same plan text
//     (the least any consumer of the plan pays); the ratio is evaluation / parse.
//  b. POST /api/guardrails/evaluate end to end on the real app (its own process): the request
//     with body validation, the evaluation, the stored record and the events, for each size.
// The plans are built like `terraform show -json` writes them: instances, security groups with
// ingress blocks, buckets, volumes and databases, with unknown and sensitive values. About one
// resource in ten breaks a rule. BENCH_GUARDRAIL_SIZES (default 500,1000,2500,5000).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { serviceUrls } from '../../test/helper.ts';
import { call, fmt, REPO, startServer, table } from './lib.ts';
import { evaluatePlan, type GuardrailInput, type PlanDocument } from '../../plugins/guardrails/plan.ts';
import type { Rule } from '../../plugins/guardrails/policy-rules.ts';
import { TEMPLATES } from '../../plugins/guardrails/templates.ts';

const GUARDRAILS = 50;

function resource(i: number) {
  const bad = i % 10 === 0;
  const kind = i % 5;
  const tags = { Owner: bad ? undefined : `team-${i % 7}`, Environment: ['dev', 'staging', 'prod'][i % 3], CostCenter: `CC-${String(1000 + (i % 9000)).padStart(4, '0')}` };
  const base = (type: string, after: Record<string, unknown>, unknown: Record<string, unknown>, sensitive: Record<string, unknown> = {}) => ({
    address: `module.m${i % 20}.${type}.r[${i}]`, module_address: `module.m${i % 20}`, mode: 'managed', type, name: 'r', index: i,
    provider_name: 'registry.terraform.io/hashicorp/aws',
    change: { actions: i % 17 === 0 ? ['delete', 'create'] : i % 3 === 0 ? ['update'] : ['create'], before: null, after: { ...after, tags, tags_all: tags }, after_unknown: { id: true, arn: true, ...unknown }, before_sensitive: false, after_sensitive: { tags: {}, tags_all: {}, ...sensitive } },
  });
  switch (kind) {
    case 0: return base('aws_instance', {
      ami: 'ami-0123', instance_type: bad ? 'm5.8xlarge' : 't3.small', associate_public_ip_address: bad,
      metadata_options: [{ http_endpoint: 'enabled', http_tokens: bad ? 'optional' : 'required' }],
      root_block_device: [{ encrypted: !bad, volume_size: 50, volume_type: 'gp3' }], user_data: '#!/bin/bash\necho hello',
    }, { private_ip: true, public_ip: true, root_block_device: [{ volume_id: true }] }, { user_data: true });
    case 1: return base('aws_security_group', {
      name: `sg-${i}`, description: 'bench',
      ingress: [22, 443, 8080].map((port) => ({ from_port: port, to_port: port, protocol: 'tcp', cidr_blocks: [bad && port === 22 ? '0.0.0.0/0' : '10.0.0.0/8'], ipv6_cidr_blocks: [], prefix_list_ids: [], security_groups: [], self: false, description: '' })),
      egress: [{ from_port: 0, to_port: 0, protocol: '-1', cidr_blocks: ['0.0.0.0/0'], ipv6_cidr_blocks: [], prefix_list_ids: [], security_groups: [], self: false, description: '' }],
    }, { vpc_id: true, owner_id: true });
    case 2: return base('aws_s3_bucket', { bucket: `bench-${i}`, force_destroy: false, acl: bad ? 'public-read' : null }, { bucket_domain_name: true, region: true, versioning: true });
    case 3: return base('aws_ebs_volume', { availability_zone: 'eu-west-1a', encrypted: !bad, size: bad ? 2000 : 100, type: bad ? 'io2' : 'gp3' }, { iops: true, throughput: true });
    default: return base('aws_db_instance', {
      engine: 'postgres', identifier: `db-${i}`, instance_class: bad ? 'db.r6g.4xlarge' : 'db.t3.small', publicly_accessible: bad, storage_encrypted: !bad,
      username: 'app', password: 'not-shown',
    }, { endpoint: true, address: true }, { password: true, username: true });
  }
}

export const benchPlan = (n: number): PlanDocument => ({ format_version: '1.2', resource_changes: Array.from({ length: n }, (_, i) => resource(i)) } as unknown as PlanDocument);

/** The 18 templates and 32 guardrails of single rules over the same types (a `*` rule among them). */
export function benchGuardrails(): GuardrailInput[] {
  const out: GuardrailInput[] = TEMPLATES.map((t) => ({ _id: t._id, name: t.name, enforcement: t.enforcement, rules: t.rules }));
  const extra: Rule[] = [
    { resourceType: '*', attribute: 'tags.Environment', operator: 'in', value: ['dev', 'staging', 'prod'], when: [{ attribute: 'tags', operator: 'exists' }] },
    { resourceType: 'aws_instance', attribute: 'ami', operator: 'matches', value: '^ami-[0-9a-f]+$' },
    { resourceType: 'aws_instance', attribute: 'root_block_device[*].volume_size', operator: 'lte', value: 200 },
    { resourceType: 'aws_security_group', attribute: 'egress[*].protocol', operator: 'not_equals', value: 'icmp' },
    { resourceType: 'aws_s3_bucket', attribute: 'bucket', operator: 'matches', value: '^[a-z0-9-]{3,63}$' },
    { resourceType: 'aws_ebs_volume', attribute: 'size', operator: 'gte', value: 1 },
    { resourceType: 'aws_db_instance', attribute: 'engine', operator: 'in', value: ['postgres', 'mysql'] },
    { resourceType: 'aws_db_instance', attribute: 'tags', operator: 'contains', value: 'CostCenter' },
  ];
  for (let i = 0; out.length < GUARDRAILS; i++) out.push({ _id: `custom-${i}`, name: `custom ${i}`, enforcement: (['warn', 'dry_run', 'block'] as const)[i % 3], rules: [extra[i % extra.length]] });
  return out;
}

interface SizeFigures { resources: number; planMb: number; parseMs: number; evaluateMs: number; ratio: number; heapGrowthMb: number; peakRssMb: number; violations: number; decision: string }

/** Child: one size, printed as one JSON line. */
function measureSize(n: number): SizeFigures {
  const text = JSON.stringify(benchPlan(n));
  const guardrails = benchGuardrails();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const parses: number[] = [];
  let plan: PlanDocument | undefined;
  for (let i = 0; i < 5; i++) { const t0 = performance.now(); plan = JSON.parse(text); parses.push(performance.now() - t0); }
  evaluatePlan(plan!, guardrails); // warm-up: compiled code paths
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const times: number[] = [];
  let result: ReturnType<typeof evaluatePlan> | undefined;
  for (let i = 0; i < 5; i++) { const t0 = performance.now(); result = evaluatePlan(plan!, guardrails); times.push(performance.now() - t0); }
  const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
  const evaluateMs = median(times);
  const parseMs = median(parses);
  return {
    resources: n, planMb: text.length / 1e6, parseMs, evaluateMs, ratio: evaluateMs / parseMs, heapGrowthMb,
    peakRssMb: process.resourceUsage().maxRSS / 1024, violations: result!.results.reduce((s, r) => s + r.violationCount, 0), decision: result!.decision,
  };
}

function child(n: number): Promise<SizeFigures> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--expose-gc', path.join(REPO, 'scripts', 'bench', 'guardrails.ts'), '--size', String(n)], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => { out += d; });
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`size ${n} exited ${code}`))));
  });
}

/** b. The route on the real app: seconds per request (median of 3), violations stored, per size. */
async function overHttp(sizes: number[], log: (line: string) => void) {
  const db = `bench_guardrails_${Date.now()}`;
  const target = await startServer('guardrails', 'app', { BENCH_DB: db });
  const mongo = new MongoClient(serviceUrls().mongoUri);
  await mongo.connect();
  try {
    const session = await call<{ token: string }>(target.url, 'POST', '/api/auth/register', { body: { email: `bench-${Date.now()}@example.com`, password: 'correct horse battery' }, expect: 201 });
    const me = await call<{ defaultOrgId: string }>(target.url, 'GET', '/api/auth/me', { token: session.token });
    await mongo.db(db).collection('organizations').updateOne({ _id: me.defaultOrgId as never }, { $set: { plan: 'pro' } });
    await new Promise((r) => setTimeout(r, 1500)); // the plan cache
    const repo = (await call<{ data: { _id: string } }>(target.url, 'POST', '/api/repo-configs', { token: session.token, body: { repositoryName: 'bench/infra', branch: 'main', provider: 'cloud_a' }, expect: 201 })).data._id;
    for (const g of benchGuardrails()) {
      const created = await call<{ _id: string }>(target.url, 'POST', '/api/guardrails', { token: session.token, body: { name: g.name, enforcement: g.enforcement, rules: g.rules }, expect: 201 });
      await call(target.url, 'PATCH', `/api/guardrails/${created._id}/deploy`, { token: session.token, body: { repositoryIds: [repo] } });
    }
    log(`${GUARDRAILS} guardrails deployed`);
    const rows: { resources: number; requestMs: number; perResourceMs: number; decision: string }[] = [];
    for (const n of sizes) {
      const body = { repositoryId: repo, plan: benchPlan(n) };
      const times: number[] = [];
      let decision = '';
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        decision = (await call<{ decision: string }>(target.url, 'POST', '/api/guardrails/evaluate', { token: session.token, body, expect: 201 })).decision;
        times.push(performance.now() - t0);
      }
      const ms = times.sort((a, b) => a - b)[1];
      rows.push({ resources: n, requestMs: ms, perResourceMs: ms / n, decision });
      log(`http ${n}: ${fmt(ms)} ms`);
    }
    return rows;
  } finally {
    await mongo.close();
    await target.stop();
  }
}

async function main() {
  const sizeArg = process.argv.indexOf('--size');
  if (sizeArg > 0) { process.stdout.write(`${JSON.stringify(measureSize(Number(process.argv[sizeArg + 1])))}\n`); return; }
  const sizes = (process.env.BENCH_GUARDRAIL_SIZES ?? '500,1000,2500,5000').split(',').map(Number).filter((n) => n > 0);
  const log = (line: string) => console.error(`bench guardrails: ${line}`);
  const loadAvg = os.loadavg();
  const inProcess: SizeFigures[] = [];
  for (const n of sizes) { inProcess.push(await child(n)); log(`evaluated ${n}`); }
  const http = await overHttp(sizes, log);
  const first = inProcess[0];
  const last = inProcess[inProcess.length - 1];
  const grow = (a: number, b: number) => fmt(b / a);
  console.log([
    `Guardrails benchmark: ${GUARDRAILS} guardrails (18 templates + 32 single rules) on plans of ${sizes.join(', ')} resource changes, node ${process.version}, ${os.cpus().length} CPUs`,
    `load average before the run: ${loadAvg.map((l) => l.toFixed(2)).join(' ')}`,
    '',
    'a. evaluatePlan in a child process per size (median of 5; baseline: JSON.parse of the same plan text)',
    table(['changes', 'plan MB', 'parse ms', 'evaluate ms', 'evaluate/parse', 'heap growth MB', 'peak RSS MB', 'violations', 'decision'],
      inProcess.map((r) => [r.resources, r.planMb, r.parseMs, r.evaluateMs, r.ratio, r.heapGrowthMb, r.peakRssMb, r.violations, r.decision])),
    `growth ${first.resources} -> ${last.resources} (${last.resources / first.resources}x the changes): evaluate time ${grow(first.evaluateMs, last.evaluateMs)}x, parse time ${grow(first.parseMs, last.parseMs)}x, peak RSS ${grow(first.peakRssMb, last.peakRssMb)}x`,
    '',
    'b. POST /api/guardrails/evaluate on the app (its own process; median of 3; body validation, evaluation, stored record, events)',
    table(['changes', 'request ms', 'ms per change', 'decision'], http.map((r) => [r.resources, r.requestMs, r.perResourceMs, r.decision])),
    `growth ${http[0].resources} -> ${http[http.length - 1].resources}: request time ${grow(http[0].requestMs, http[http.length - 1].requestMs)}x; the request / evaluation alone at ${last.resources}: ${fmt(http[http.length - 1].requestMs / last.evaluateMs)}x`,
  ].join('\n'));
  const dir = path.join(REPO, '.data', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `guardrails-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, loadAvg, inProcess, http }, null, 2)}\n`);
  console.log(`\ndata: ${path.relative(REPO, file)}`);
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(`bench guardrails: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
