// Scan benchmark (issue 6, point 7): detection engine time and memory for states of 1,000 /
// 5,000 / 10,000 resources, against real resources in a private moto server.
//   npx tsx scripts/bench/scan.ts            (BENCH_SCAN_SIZES=1000,5000,10000 by default)
// One cloud is built for the largest size (45% security groups, 45% instances, 5% S3 buckets
// with their versioning and public-access-block resources, 5% IAM roles and policies), with 1%
// of the security groups re-tagged out of band; each smaller state is a prefix of every kind.
// Each size is scanned in its own process so its peak RSS is its own. moto's CPU time during
// each scan is read from /proc, to tell the emulator's share of the wall time from the engine's.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMoto as startPrivateMoto } from './private-moto.ts';
import {
  CreateSecurityGroupCommand, CreateTagsCommand, DescribeImagesCommand, DescribeSecurityGroupsCommand, EC2Client, RunInstancesCommand,
  type Instance,
} from '@aws-sdk/client-ec2';
import { CreatePolicyCommand, CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { CreateBucketCommand, PutBucketVersioningCommand, PutPublicAccessBlockCommand, S3Client } from '@aws-sdk/client-s3';
import { detectDrift } from '../../runner-agent/src/engine/index.ts';
import { mapLimit, renderPermissions } from '../../runner-agent/src/engine/tools.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATA = path.resolve(process.env.DRIFT_DATA_DIR ?? path.join(REPO, '.data'));
const CREDS = { accessKeyId: 'bench', secretAccessKey: 'bench', region: 'us-east-1' };
const log = (s: string) => process.stderr.write(`${s}\n`);

interface Figures {
  size: number; resourcesScanned: number; drifts: number; wallMs: number; engineCpuMs: number; motoCpuMs: number;
  rssBeforeMb: number; peakRssMb: number; sdkCalls: number; byService: Record<string, number>;
}

// ---- worker: one scan in this process --------------------------------------------------------

async function worker(size: number, endpoint: string, repo: string, motoPid: number): Promise<void> {
  const rssBefore = process.memoryUsage().rss;
  const motoCpu0 = procCpuMs(motoPid);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await detectDrift({
    source: { kind: 'path', path: repo }, iacPaths: [], provider: 'cloud_a', credentials: CREDS, endpoint,
    statePath: `state-${size}.json`,
  });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const f: Figures = {
    size, resourcesScanned: out.resourcesScanned, drifts: out.drifts.length, wallMs: Math.round(wallMs),
    engineCpuMs: Math.round((cpu.user + cpu.system) / 1000), motoCpuMs: Math.round(procCpuMs(motoPid) - motoCpu0),
    rssBeforeMb: mb(rssBefore), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    sdkCalls: out.stats.sdkCalls, byService: out.stats.sdkCallsByService,
  };
  process.stdout.write(`${JSON.stringify(f)}\n`);
}

const mb = (bytes: number) => Math.round(bytes / 1048576);

/** CPU time (user + system) of a process, from /proc/<pid>/stat, in ms. */
function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks (100 Hz on Linux)
  } catch {
    return Number.NaN;
  }
}

// ---- the cloud and the states ----------------------------------------------------------------

const startMoto = () => startPrivateMoto(REPO, DATA, 'moto-bench.log', log);

export type Res = { type: string; name: string; attributes: Record<string, unknown> };

/** moto under bulk load sometimes answers a creation with an HTML 500 page: try again a few times. */
async function retry<T>(fn: () => Promise<T>, what: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= 5) throw new Error(`${what}: ${(e as Error).message} (see .data/logs/moto-bench.log)`);
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}

export async function buildCloud(endpoint: string, max: number): Promise<{ kinds: Record<string, Res[]>; secs: number }> {
  const t0 = performance.now();
  const cfg = { endpoint, region: CREDS.region, credentials: CREDS };
  const ec2 = new EC2Client(cfg);
  const s3 = new S3Client({ ...cfg, forcePathStyle: true });
  const iam = new IAMClient(cfg);
  const nSg = Math.round(max * 0.45);
  const nInst = Math.round(max * 0.45);
  const nBucket = Math.round((max * 0.05) / 3);
  const nIam = Math.round((max * 0.05) / 2);
  const tags = (t: { Key?: string; Value?: string }[] | undefined) => Object.fromEntries((t ?? []).map((x) => [x.Key, x.Value]));

  log(`creating ${nSg} security groups, ${nInst} instances, ${nBucket} buckets (x3 resources), ${nIam} IAM roles and policies in moto`);
  const sgIds = await mapLimit([...Array(nSg).keys()], 8, async (i) =>
    (await retry(() => ec2.send(new CreateSecurityGroupCommand({ GroupName: `bench-${i}`, Description: 'bench' })), 'CreateSecurityGroup')).GroupId!);
  const ami = (await ec2.send(new DescribeImagesCommand({}))).Images![0].ImageId!;
  const instances: Instance[] = [];
  for (let left = nInst; left > 0; left -= 100) {
    const n = Math.min(100, left);
    const out = await retry(() => ec2.send(new RunInstancesCommand({ ImageId: ami, MinCount: n, MaxCount: n, InstanceType: 't3.micro',
      TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: 'Team', Value: 'bench' }] }] })), 'RunInstances');
    instances.push(...out.Instances!);
  }
  const buckets = await mapLimit([...Array(nBucket).keys()], 8, async (i) => {
    const b = `bench-bucket-${i}`;
    await retry(() => s3.send(new CreateBucketCommand({ Bucket: b })), 'CreateBucket');
    await s3.send(new PutBucketVersioningCommand({ Bucket: b, VersioningConfiguration: { Status: 'Enabled' } }));
    await s3.send(new PutPublicAccessBlockCommand({ Bucket: b, PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true } }));
    return b;
  });
  const trust = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] });
  const doc = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }] });
  const iamPairs = await mapLimit([...Array(nIam).keys()], 8, async (i) => {
    await iam.send(new CreateRoleCommand({ RoleName: `bench-role-${i}`, AssumeRolePolicyDocument: trust }));
    const p = await iam.send(new CreatePolicyCommand({ PolicyName: `bench-policy-${i}`, PolicyDocument: doc }));
    return { role: `bench-role-${i}`, policy: p.Policy!.Arn! };
  });

  // State attributes read back from the groups (default egress rule included), as an import would.
  const groups = new Map<string, Res>();
  for (let i = 0; i < sgIds.length; i += 500) {
    const out = await retry(() => ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: sgIds.slice(i, i + 500) })), 'DescribeSecurityGroups');
    for (const g of out.SecurityGroups ?? []) {
      groups.set(g.GroupId!, { type: 'aws_security_group', name: `sg_${g.GroupName!.slice(6)}`, attributes: {
        id: g.GroupId, arn: g.SecurityGroupArn, name: g.GroupName, description: g.Description, vpc_id: g.VpcId, owner_id: g.OwnerId,
        tags: tags(g.Tags), tags_all: tags(g.Tags), ingress: [], egress: renderPermissions(g.IpPermissionsEgress, g.GroupId!), revoke_rules_on_delete: false,
      } });
    }
  }
  // 1% of the groups drift (a tag added out of band), spread over every prefix.
  const drifted = sgIds.filter((_, i) => i % 100 === 0);
  await mapLimit(drifted, 8, (id) => retry(() => ec2.send(new CreateTagsCommand({ Resources: [id], Tags: [{ Key: 'Owner', Value: 'someone' }] })), 'CreateTags'));

  const kinds: Record<string, Res[]> = {
    sg: sgIds.map((id) => groups.get(id)!),
    instance: instances.map((i, n) => ({ type: 'aws_instance', name: `i_${n}`, attributes: {
      id: i.InstanceId, ami: i.ImageId, instance_type: i.InstanceType, availability_zone: i.Placement?.AvailabilityZone,
      subnet_id: i.SubnetId, private_ip: i.PrivateIpAddress, vpc_security_group_ids: (i.SecurityGroups ?? []).map((g) => g.GroupId),
      tags: tags(i.Tags), tags_all: tags(i.Tags), key_name: '', monitoring: false, source_dest_check: true, ebs_optimized: false,
      public_ip: i.PublicIpAddress, private_dns: i.PrivateDnsName, instance_state: 'running', cpu_core_count: 1,
    } })),
    bucket: buckets.flatMap((b, n) => [
      { type: 'aws_s3_bucket', name: `b_${n}`, attributes: { id: b, bucket: b, arn: `arn:aws:s3:::${b}`, tags: {}, versioning: [{ enabled: true, mfa_delete: false }], server_side_encryption_configuration: [] } },
      { type: 'aws_s3_bucket_versioning', name: `b_${n}`, attributes: { id: b, bucket: b, versioning_configuration: [{ status: 'Enabled', mfa_delete: '' }] } },
      { type: 'aws_s3_bucket_public_access_block', name: `b_${n}`, attributes: { id: b, bucket: b, block_public_acls: true, block_public_policy: true, ignore_public_acls: true, restrict_public_buckets: true } },
    ]),
    iam: iamPairs.flatMap((p, n) => [
      { type: 'aws_iam_role', name: `r_${n}`, attributes: { id: p.role, name: p.role, assume_role_policy: trust, path: '/', max_session_duration: 3600, tags: {}, inline_policy: [], managed_policy_arns: [] } },
      { type: 'aws_iam_policy', name: `p_${n}`, attributes: { id: p.policy, arn: p.policy, name: `bench-policy-${n}`, path: '/', policy: doc, tags: {} } },
    ]),
  };
  for (const c of [ec2, s3, iam]) c.destroy();
  return { kinds, secs: (performance.now() - t0) / 1000 };
}

export function writeState(dir: string, kinds: Record<string, Res[]>, size: number, max: number): void {
  const take = (list: Res[]) => list.slice(0, Math.round((list.length * size) / max));
  const resources = Object.values(kinds).flatMap(take).map((r) => ({
    mode: 'managed', type: r.type, name: r.name, provider: 'provider["registry.terraform.io/hashicorp/aws"]',
    instances: [{ schema_version: 0, attributes: r.attributes, sensitive_attributes: [] }],
  }));
  writeFileSync(path.join(dir, `state-${size}.json`), JSON.stringify({ version: 4, serial: 1, lineage: 'bench', resources }));
}

// ---- driver ----------------------------------------------------------------------------------

function runWorker(size: number, endpoint: string, repo: string, motoPid: number): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--worker', String(size), endpoint, repo, String(motoPid)],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_NO_WARNINGS: '1' } });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as Figures) : reject(new Error(`worker for ${size} exited ${code}`))));
  });
}

const pad = (cells: (string | number)[], widths: number[]) => cells.map((c, i) => String(c).padStart(widths[i])).join('  ');

async function main(): Promise<void> {
  const sizes = (process.env.BENCH_SCAN_SIZES ?? '1000,5000,10000').split(',').map(Number).filter((n) => n > 0).sort((a, b) => a - b);
  const max = sizes[sizes.length - 1];
  const moto = await startMoto();
  const repo = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-scan-'));
  try {
    writeFileSync(path.join(repo, 'main.tf'), '# resources elided: the scan reads the state and the cloud\nprovider "aws" {\n  region = "us-east-1"\n}\n');
    const { kinds, secs } = await buildCloud(moto.endpoint, max);
    log(`cloud built in ${secs.toFixed(0)}s`);
    for (const s of sizes) writeState(repo, kinds, s, max);
    const rows: Figures[] = [];
    for (const s of sizes) {
      log(`scanning ${s}`);
      rows.push(await runWorker(s, moto.endpoint, repo, moto.pid));
    }
    const base = rows[0];
    const widths = [7, 9, 6, 8, 10, 9, 9, 9, 9, 30, 9, 9];
    const lines = [
      `Scan benchmark: node ${process.version}, ${os.cpus().length} CPUs, moto private instance; cloud of ${max} resources built in ${secs.toFixed(0)}s`,
      pad(['size', 'scanned', 'drifts', 'wall s', 'engine s', 'moto s', 'rss0 MB', 'peak MB', 'SDK calls', 'calls by service', 'wall/1st', 'calls/1st'], widths),
      ...rows.map((r) => pad([r.size, r.resourcesScanned, r.drifts, (r.wallMs / 1000).toFixed(1), (r.engineCpuMs / 1000).toFixed(1), (r.motoCpuMs / 1000).toFixed(1),
        r.rssBeforeMb, r.peakRssMb, r.sdkCalls, Object.entries(r.byService).map(([k, v]) => `${k}:${v}`).join(' '),
        (r.wallMs / base.wallMs).toFixed(2), (r.sdkCalls / base.sdkCalls).toFixed(2)], widths)),
      'wall: detectDrift() wall time; engine: this process\'s CPU in it; moto: the emulator\'s CPU in the same window;',
      'rss0: the scan process before detectDrift (node, SDK loaded); peak: its max RSS by the end.',
    ];
    console.log(lines.join('\n'));
    const outDir = path.join(DATA, 'bench');
    mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `scan-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify({ node: process.version, cpus: os.cpus().length, buildSeconds: secs, rows }, null, 2)}\n`);
    log(`wrote ${file}`);
  } finally {
    moto.stop();
    rmSync(repo, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--worker') {
  worker(Number(process.argv[3]), process.argv[4], process.argv[5], Number(process.argv[6])).catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
} else if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  // Run as a script (the events bench imports buildCloud and writeState).
  main().catch((e: unknown) => {
    console.error(`bench scan: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
