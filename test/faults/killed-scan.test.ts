// Fault: the service is killed (SIGKILL, a crash) while a scan runs on its built-in executor.
// The cloud endpoint is a TCP server that accepts and never answers, so the scan is surely
// still running when the process dies. After a restart the scan must end (failed, or completed
// if resumed) within the scan timeout plus a bound, never stay `running` (docs/faults.md).
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { controlApp, http, startService, until } from '../e2e/lib.ts';

const TIMEOUT_MINUTES = 0.25; // 15 s

// The cloud that never answers.
const held = new Set<Socket>();
const blackHole = createServer((s) => { held.add(s); s.on('error', () => undefined); });
await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', () => r()));
t.teardown(() => { for (const s of held) s.destroy(); blackHole.close(); });
const endpoint = `http://127.0.0.1:${(blackHole.address() as { port: number }).port}`;

// A repository with one security group in its HCL and its state.
const repo = mkdtempSync(join(tmpdir(), 'drift-fault-repo-'));
t.teardown(() => rmSync(repo, { recursive: true, force: true }));
mkdirSync(join(repo, 'infra'));
writeFileSync(join(repo, 'infra', 'main.tf'), 'provider "aws" {\n  region = "us-east-1"\n}\n\nresource "aws_security_group" "web" {\n  name = "web"\n}\n');
writeFileSync(join(repo, 'infra', 'terraform.tfstate'), JSON.stringify({
  version: 4, terraform_version: '1.9.8', serial: 1, lineage: 'fault', outputs: {},
  resources: [{ mode: 'managed', type: 'aws_security_group', name: 'web', provider: 'provider["registry.terraform.io/hashicorp/aws"]',
    instances: [{ schema_version: 1, attributes: { id: 'sg-0123456789abcdef0', name: 'web', ingress: [], egress: [], tags: {} }, sensitive_attributes: [] }] }],
}));
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], { cwd: repo, stdio: 'pipe' });
git('init', '-q', '-b', 'main');
git('add', '-A');
git('commit', '-q', '-m', 'infra');

t.test('killed during a scan: after a restart the scan ends, never stuck running', async (t) => {
  const control = await controlApp(t);
  const env = { E2E_DB: control.db, E2E_PREFIX: control.prefix, DRIFT_CLOUD_A_ENDPOINT: endpoint, SCAN_TIMEOUT_MINUTES: String(TIMEOUT_MINUTES), EXECUTOR_CONCURRENCY: '1' };
  let service = await startService(t, env);
  const owner = (await http(service.url, 'POST', '/api/auth/register', undefined, { email: `fault-${Date.now()}@example.com`, password: 'correct horse battery' })).body;
  const orgId = (await http(service.url, 'GET', '/api/auth/me', owner.token)).body.defaultOrgId;
  await control.ctx.tenancy.setPlan(orgId, 'team');
  const api = (method: string, p: string, body?: unknown) => http(service.url, method, p, owner.token, body);
  t.equal((await api('POST', '/api/auth/cloud-a-credentials', { accessKeyId: 'testing', secretAccessKey: 'testing', region: 'us-east-1' })).status, 200);
  const cfg = await api('POST', '/api/repo-configs', { repositoryName: 'acme/fault', branch: 'main', provider: 'cloud_a', iacPaths: ['infra'], repositoryUrl: `file://${repo}` });
  t.equal(cfg.status, 201);
  const trig = await api('POST', `/api/scans/trigger/${cfg.body.data._id}`);
  t.equal(trig.status, 201);
  const scanId = trig.body.data._id as string;
  await until('the scan to run', async () => (await api('GET', `/api/scans/${scanId}`)).body.data.status === 'running', 60_000);
  t.pass('the scan is running (its cloud calls hang)');

  service.child.kill('SIGKILL');
  await service.exited;
  const killedAt = Date.now();
  service = await startService(t, { ...env, E2E_PORT: String(service.port) });
  const end = await until('the scan to end', async () => {
    const s = (await api('GET', `/api/scans/${scanId}`)).body.data;
    return s.status === 'failed' || s.status === 'completed' ? s : undefined;
  }, TIMEOUT_MINUTES * 60_000 + 60_000, 500);
  t.ok(['failed', 'completed'].includes(end.status), `the scan ended ${end.status} ${Math.round((Date.now() - killedAt) / 1000)} s after the crash (${end.error ?? 'no error'})`);
  t.ok(end.completedAt, 'with its completion time');
  const scans = (await api('GET', `/api/scans/repository/${cfg.body.data._id}`)).body.data as { status: string }[];
  t.notOk(scans.some((s) => s.status === 'running' || s.status === 'pending'), 'no scan of the config is left running or pending');
  service.child.kill('SIGTERM');
  await service.exited;
});
