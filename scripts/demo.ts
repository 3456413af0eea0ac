// `npm run demo`: the main job on the embedded defaults, for a new user (docs/demo.md).
//   1. uses the service at DEMO_URL (default http://127.0.0.1:$PORT, PORT default 3000), or
//      starts one in the background (EXECUTOR_LOCAL_SOURCES on, cloud_a calls to the embedded moto);
//   2. a demo user with its organization (plan Team, set as `npm run ops -- set-plan` does) and
//      the moto credentials as its cloud_a account;
//   3. real resources in moto (a security group, an S3 bucket with versioning, an EC2 instance),
//      a local git repository (.data/demo/repo) with the HCL and the Terraform state that declare
//      them, and a repository config pointing at it (file://);
//   4. out-of-band changes (the group opened to 0.0.0.0/0, versioning suspended, the instance
//      terminated), one scan, and what it found, with the links and credentials for Swagger UI.
// Idempotent: a second run replaces the previous run's cloud resources and reuses the user,
// organization and config (the cloud resources and the repository: scripts/demo/world.ts).
// `npm run demo -- --remove` deletes all of it (and stops the service if the demo started it).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AuthorizeSecurityGroupIngressCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { PutBucketVersioningCommand } from '@aws-sdk/client-s3';
import { DOCS_PATH } from '../core/openapi.ts';
import { ensureDevSecrets } from './dev-secrets.ts';
import { ScriptError, runScript, withApp } from './app-for-scripts.ts';
import { aws, CLOUD, createWorld, gitDir, removeWorld } from './demo/world.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = path.resolve(process.env.DRIFT_DATA_DIR ?? path.join(REPO, '.data'));
// DEMO_DIR: another folder for the demo's files (its tests use a temporary one).
const DIR = path.resolve(process.env.DEMO_DIR ?? path.join(DATA, 'demo'));
const SERVICE_PID = path.join(DIR, 'service.pid');
const GIT_DIR = gitDir(DIR);
export const DEMO_USER = { email: process.env.DEMO_EMAIL ?? 'demo@drift.local', password: process.env.DEMO_PASSWORD ?? 'drift-demo-password', name: 'Demo User' };
export const DEMO_REPOSITORY = 'demo/infra';

interface Change { attribute: string; before: unknown; after: unknown }
interface Drift { resourceAddress: string; severity: string; changeType: string; diff: { changes: Change[] } }

const say = (line: string) => console.log(line);
// The AWS SDK's notice about future Node versions says nothing about the demo.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: never[]) => {
  if (!String(warning instanceof Error ? warning.message : warning).includes('AWS SDK')) emitWarning(warning, ...rest);
}) as typeof process.emitWarning;
const step = (line: string) => console.error(`demo: ${line}`);

/** The embedded services (unless MONGODB_URI, REDIS_URL and DRIFT_MOTO_URL are all given); their URLs go into the environment. */
async function services(): Promise<string> {
  const env = process.env;
  if (!(env.MONGODB_URI && env.REDIS_URL && env.DRIFT_MOTO_URL)) {
    const { ensureServices } = await import('./services.ts');
    const s = await ensureServices({ log: (l) => { if (!/already running|external/.test(l)) step(l.trim()); } });
    env.MONGODB_URI ||= s.mongoUri;
    env.REDIS_URL ||= s.redisUrl;
    env.DRIFT_MOTO_URL ||= s.motoUrl;
    if (s.postgresUrl && env.FERRETDB_POSTGRES_URL === undefined) env.FERRETDB_POSTGRES_URL = s.postgresUrl;
  }
  ensureDevSecrets(env);
  return env.DRIFT_MOTO_URL!;
}

const serviceUrl = () => (process.env.DEMO_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/$/, '');

async function api<T = Record<string, unknown>>(method: string, p: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(serviceUrl() + p, {
    method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}
async function must<T = Record<string, unknown>>(method: string, p: string, token: string | undefined, body: unknown, ok: number[]): Promise<T> {
  const res = await api<T>(method, p, token, body);
  if (!ok.includes(res.status)) throw new ScriptError(`${method} ${p} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body;
}

const healthy = () => api('GET', '/health').then((r) => r.status === 200, () => false);

/** The service at serviceUrl(), started in the background when nothing answers there. */
async function ensureService(motoUrl: string): Promise<'running' | 'started'> {
  if (await healthy()) return 'running';
  if (process.env.DEMO_URL) throw new ScriptError(`no service answers at ${process.env.DEMO_URL}`);
  mkdirSync(path.join(DATA, 'logs'), { recursive: true });
  const log = path.join(DATA, 'logs', 'demo-service.log');
  const out = openSync(log, 'a');
  step(`starting the service on ${serviceUrl()} (log ${path.relative(process.cwd(), log)})`);
  const child = spawn(process.execPath, [path.join(REPO, 'scripts', 'start.ts')], {
    cwd: REPO, detached: true, stdio: ['ignore', out, out],
    env: { ...process.env, EXECUTOR_LOCAL_SOURCES: 'true', DRIFT_CLOUD_A_ENDPOINT: motoUrl },
  });
  child.unref();
  mkdirSync(DIR, { recursive: true });
  writeFileSync(SERVICE_PID, `${child.pid}\n`);
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new ScriptError(`the service exited with ${child.exitCode}; see ${log}`);
    if (await healthy()) return 'started';
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new ScriptError(`the service did not answer within 120s; see ${log}`);
}

/** Signs the demo user in, registering it the first time. */
async function demoSession(): Promise<{ token: string; orgId: string; created: boolean }> {
  let created = false;
  let login = await api<{ token?: string }>('POST', '/api/auth/login', undefined, { email: DEMO_USER.email, password: DEMO_USER.password });
  if (login.status === 401) {
    await must('POST', '/api/auth/register', undefined, DEMO_USER, [201]);
    created = true;
    login = await api('POST', '/api/auth/login', undefined, { email: DEMO_USER.email, password: DEMO_USER.password });
  }
  if (login.status !== 200 || !login.body.token) throw new ScriptError(`cannot sign in as ${DEMO_USER.email}: ${login.status} ${JSON.stringify(login.body)}`);
  const me = await must<{ defaultOrgId: string }>('GET', '/api/auth/me', login.body.token, undefined, [200]);
  return { token: login.body.token, orgId: me.defaultOrgId, created };
}

const show = (v: unknown): string => (v === null || v === undefined ? '(none)' : typeof v === 'string' ? v : isRule(v) ? rule(v) : JSON.stringify(v));
type Rule = { protocol: string; from_port: number; to_port: number; cidr_blocks: string[] };
const isRule = (v: unknown): v is Rule => !!v && typeof v === 'object' && 'from_port' in v && 'cidr_blocks' in v;
const rule = (r: Rule) => `${r.protocol} ${r.from_port === r.to_port ? r.from_port : `${r.from_port}-${r.to_port}`} from ${r.cidr_blocks.join(', ') || '(no CIDR)'}`;

/** One change as lines: lists show what was added and removed, the rest before -> after. */
function changeLines(c: Change): string[] {
  if (Array.isArray(c.before) && Array.isArray(c.after)) {
    const key = (v: unknown) => JSON.stringify(v);
    const before = new Set(c.before.map(key));
    const after = new Set(c.after.map(key));
    const added = c.after.filter((v) => !before.has(key(v)));
    const removed = c.before.filter((v) => !after.has(key(v)));
    if (added.length + removed.length) return [...added.map((v) => `${c.attribute}: + ${show(v)}`), ...removed.map((v) => `${c.attribute}: - ${show(v)}`)];
  }
  return [`${c.attribute}: ${show(c.before)} -> ${show(c.after)}`];
}

async function run(): Promise<number> {
  const motoUrl = await services();
  const service = await ensureService(motoUrl);
  step(`service ${service} at ${serviceUrl()}`);
  const session = await demoSession();
  step(`user ${DEMO_USER.email} ${session.created ? 'registered' : 'signed in'}; organization ${session.orgId}`);
  // Cloud accounts need a paid plan: set it the way `npm run ops -- set-plan` does (audited; running servers see it at once).
  await withApp(async ({ ctx }) => {
    const { changePlan } = await import('../core/tenancy/plan-change.ts');
    await changePlan(ctx, session.orgId, 'team', { cause: 'ops.set-plan', route: 'npm run demo' });
    await ctx.audit.flush();
  });
  await must('POST', '/api/auth/cloud-a-credentials', session.token, CLOUD, [200]);

  await removeWorld(motoUrl, DIR);
  const world = await createWorld(motoUrl, DIR);
  step(`resources in moto: security group ${world.sgId}, bucket ${world.bucket} (versioning on), instance ${world.instanceId}`);
  step(`git repository with the HCL and state: ${GIT_DIR}`);

  const fields = { repositoryName: DEMO_REPOSITORY, branch: 'main', provider: 'cloud_a', iacPaths: ['infra'], repositoryUrl: `file://${GIT_DIR}` };
  const configs = await must<{ data: { _id: string; repositoryName: string }[] }>('GET', '/api/repo-configs', session.token, undefined, [200]);
  const known = configs.data.find((c) => c.repositoryName === DEMO_REPOSITORY);
  const configId = known
    ? (await must<{ data: { _id: string } }>('PUT', `/api/repo-configs/${known._id}`, session.token, fields, [200])).data._id
    : (await must<{ data: { _id: string } }>('POST', '/api/repo-configs', session.token, fields, [201])).data._id;
  step(`repository config ${configId} (${DEMO_REPOSITORY}, ${fields.repositoryUrl})`);

  const { ec2, s3 } = aws(motoUrl);
  await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: world.sgId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
  await s3.send(new PutBucketVersioningCommand({ Bucket: world.bucket, VersioningConfiguration: { Status: 'Suspended' } }));
  await ec2.send(new TerminateInstancesCommand({ InstanceIds: [world.instanceId] }));
  step('out of band: port 22 opened to 0.0.0.0/0, bucket versioning suspended, instance terminated');

  const scan = (await must<{ data: { _id: string } }>('POST', `/api/scans/trigger/${configId}`, session.token, undefined, [201])).data;
  step(`scan ${scan._id} triggered; waiting for it`);
  let done: { status: string; error: string | null; driftCount: number } | undefined;
  for (let i = 0; i < 360 && !done; i++) {
    const s = (await must<{ data: { status: string; error: string | null; driftCount: number } }>('GET', `/api/scans/${scan._id}`, session.token, undefined, [200])).data;
    if (s.status === 'completed' || s.status === 'failed') done = s;
    else await new Promise((r) => setTimeout(r, 500));
  }
  if (!done) throw new ScriptError(`scan ${scan._id} did not finish within 3 minutes`);
  if (done.status === 'failed') {
    throw new ScriptError(`scan ${scan._id} failed: ${done.error}${service === 'running'
      ? `\nThe running service must scan local repositories against the embedded moto: restart it with EXECUTOR_LOCAL_SOURCES=true DRIFT_CLOUD_A_ENDPOINT=${motoUrl}, or stop it and let the demo start one`
      : ''}`);
  }
  const drifts = (await must<{ data: Drift[] }>('GET', `/api/drifts/scan/${scan._id}`, session.token, undefined, [200])).data;

  const base = serviceUrl();
  say('');
  say(`Scan ${scan._id} of ${DEMO_REPOSITORY}: ${done.status}, ${drifts.length} drift${drifts.length === 1 ? '' : 's'}`);
  for (const d of drifts) {
    say(`  ${d.severity.toUpperCase().padEnd(8)} ${d.resourceAddress} (${d.changeType})`);
    for (const c of d.diff.changes) for (const line of changeLines(c)) say(`           ${line}`);
  }
  say('');
  say(`Explore it in Swagger UI: ${base}${DOCS_PATH}`);
  say(`  sign in: POST /api/auth/login with {"email": "${DEMO_USER.email}", "password": "${DEMO_USER.password}"}`);
  say(`  then Authorize with the token; or now (15 minutes): ${session.token}`);
  say(`  this scan:   ${base}/api/scans/${scan._id}   its drifts: ${base}/api/drifts/scan/${scan._id}`);
  const pid = existsSync(SERVICE_PID) ? readFileSync(SERVICE_PID, 'utf8').trim() : undefined;
  say(`Remove the demo: npm run demo -- --remove${pid ? ` (also stops the service the demo started, pid ${pid})` : ''}`);
  return 0;
}

/** Deletes the demo user's organization data, the user, the cloud resources, the repository, and the service the demo started. */
async function remove(): Promise<number> {
  const motoUrl = await services();
  // The service the demo started goes first: stopping, it flushes what it still holds (audit entries).
  if (existsSync(SERVICE_PID)) {
    const pid = Number(readFileSync(SERVICE_PID, 'utf8').trim());
    const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
    if (alive()) {
      process.kill(pid, 'SIGTERM');
      for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 200));
      step(`stopped the service the demo started (pid ${pid})`);
    }
    rmSync(SERVICE_PID, { force: true });
  }
  await withApp(async ({ ctx }) => {
    const db = ctx.db.db;
    const user = await db.collection('users').findOne({ email: DEMO_USER.email });
    if (!user) {
      step(`no user ${DEMO_USER.email}: nothing stored to remove`);
      return;
    }
    const userId = user._id;
    const orgIds = (await db.collection('memberships').find({ userId }).toArray()).map((m) => m.orgId as string);
    // Only organizations the demo user is alone in: never another member's data.
    const own: string[] = [];
    for (const orgId of orgIds) if ((await db.collection('memberships').countDocuments({ orgId })) === 1) own.push(orgId);
    let removed = 0;
    for (const spec of ctx.db.specs()) {
      const col = db.collection(spec.name);
      for (const orgId of own) removed += (await col.deleteMany({ orgId })).deletedCount;
      if (spec.name !== 'audit_logs') removed += (await col.deleteMany({ userId })).deletedCount;
    }
    for (const orgId of own) removed += (await db.collection<{ _id: string }>('organizations').deleteMany({ _id: orgId })).deletedCount;
    removed += (await db.collection('users').deleteOne({ _id: userId })).deletedCount;
    step(`removed ${DEMO_USER.email}, ${own.length} organization(s) and ${removed} stored records`);
  });
  await removeWorld(motoUrl, DIR);
  rmSync(DIR, { recursive: true, force: true });
  say('demo removed');
  return 0;
}

const args = process.argv.slice(2);
if (args.some((a) => a !== '--remove')) {
  console.error('usage: npm run demo [-- --remove]');
  process.exit(2);
}
runScript('demo', args.includes('--remove') ? remove : run);
