// `npm run demo` as a new user runs it: no service answering, so the demo starts one, creates
// its user, organization, moto resources, git repository and config, changes the resources out
// of band, scans and prints the three drifts. A second run reuses the user, organization and
// config and finds the same drifts. `--remove` stops the service it started and leaves no data.
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { ROOT } from '../../core/loader.ts';
import { serviceUrls, TEST_SECRETS } from '../helper.ts';
import { motoUrl } from '../engine/world.ts';

const name = `t_demo_${randomBytes(3).toString('hex')}`;
const tmp = mkdtempSync(join(tmpdir(), 'drift-demo-'));
const demoDir = join(tmp, 'demo');
const { mongoUri, redisUrl, postgresUrl } = serviceUrls();
const port = await new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
});
const env: Record<string, string> = {
  MONGODB_URI: mongoUri, REDIS_URL: redisUrl, DRIFT_MOTO_URL: motoUrl(), MONGODB_DB: name, REDIS_KEY_PREFIX: `${name}:`,
  NODE_ENV: 'test', LOG_LEVEL: 'warn', PORT: String(port), DEMO_DIR: demoDir, DRIFT_CONFIG: join(tmp, 'absent.json'),
  MAIL_OUTBOX_DIR: join(tmp, 'outbox'), ...TEST_SECRETS, ...(postgresUrl ? { FERRETDB_POSTGRES_URL: postgresUrl } : {}),
};
const client = await new MongoClient(mongoUri).connect();
const db = client.db(name);
const base = `http://127.0.0.1:${port}`;
const answering = () => fetch(`${base}/health`).then(() => true, () => false);

t.teardown(async () => {
  // Should --remove have failed, the service the demo started must not outlive the test.
  const pidFile = join(demoDir, 'service.pid');
  if (existsSync(pidFile)) try { process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL'); } catch { /* gone */ }
  await db.dropDatabase().catch(() => undefined);
  await client.close();
  rmSync(tmp, { recursive: true, force: true });
});

function demo(args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/demo.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d; });
    child.stderr.on('data', (d: Buffer) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function checkFindings(t: Test, stdout: string) {
  t.match(stdout, /completed, 3 drifts/, 'the scan completed with three drifts');
  t.match(stdout, /CRITICAL aws_security_group\.web \(changed\)\n\s+ingress: \+ tcp 22 from 0\.0\.0\.0\/0/, 'the security group opened to the world: critical, the added rule');
  t.match(stdout, /HIGH\s+aws_instance\.web \(removed\)\n\s+id: i-\w+ -> \(none\)/, 'the terminated instance: high, removed');
  t.match(stdout, /MEDIUM\s+aws_s3_bucket_versioning\.data \(changed\)\n\s+versioning_configuration\.0\.status: Enabled -> Suspended/, 'versioning suspended: medium');
  t.match(stdout, new RegExp(`Swagger UI: ${base}/docs`), 'the Swagger UI link');
  t.match(stdout, /"email": "demo@drift\.local", "password": "drift-demo-password"/, 'the credentials');
}

t.test('first run: starts the service and shows what the scan found', async (t) => {
  t.notOk(await answering(), 'no service on the port before');
  const run = await demo();
  t.equal(run.code, 0, 'exit 0', { stderr: run.stderr.slice(-2000) });
  t.match(run.stderr, /starting the service/);
  checkFindings(t, run.stdout);
  t.ok(await answering(), 'the service keeps running for the user to explore');
  t.equal(await db.collection('users').countDocuments({ email: 'demo@drift.local' }), 1);
  t.equal(await db.collection('repo_configs').countDocuments({}), 1);
});

t.test('second run: idempotent (same user, organization and config; the same findings)', async (t) => {
  const orgsBefore = await db.collection('organizations').countDocuments({});
  const run = await demo();
  t.equal(run.code, 0, 'exit 0', { stderr: run.stderr.slice(-2000) });
  t.match(run.stderr, /service running/);
  t.match(run.stderr, /signed in/);
  checkFindings(t, run.stdout);
  t.equal(await db.collection('users').countDocuments({}), 1, 'one user');
  t.equal(await db.collection('organizations').countDocuments({}), orgsBefore, 'no new organization');
  t.equal(await db.collection('repo_configs').countDocuments({}), 1, 'one config');
  t.equal(await db.collection('scans').countDocuments({}), 2, 'one scan per run');
});

t.test('--remove: the service it started stops and no data is left', async (t) => {
  const run = await demo(['--remove']);
  t.equal(run.code, 0, 'exit 0', { stderr: run.stderr.slice(-2000) });
  t.match(run.stdout, /demo removed/);
  t.notOk(await answering(), 'the service is stopped');
  for (const c of ['users', 'organizations', 'memberships', 'repo_configs', 'scans', 'drifts', 'sessions', 'cloud_credentials']) {
    t.equal(await db.collection(c).countDocuments({}), 0, `no ${c}`);
  }
  t.notOk(existsSync(demoDir), 'the demo folder (git repository) is gone');
  const again = await demo(['--remove']);
  t.equal(again.code, 0, 'a second --remove is harmless');
  t.match(again.stderr, /nothing stored to remove/);
});
