// The runner install script, run for real as a new user would on a host without Node: fetched
// from the service listening on a port, run with bash and a clean PATH (bash, curl, tar, git and
// the basic file tools; no node, no npm) into a temporary root (DRIFT_RUNNER_ROOT). It installs
// the one-file agent beside the official Node binary, both checked against the SHA-256 values the
// script carries; the installed runner comes online and completes a scan against moto. Then: a
// second run is idempotent, a tampered package is refused with nothing changed, and an upgrade
// to a package that does not report in is rolled back.
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderSetupScript } from '../../runner-agent/src/setup-script.ts';
import { runtimeLock } from '../../plugins/runners/agent-package.ts';
import { CREDENTIALS, createWorld } from '../engine/world.ts';
import { until } from './lib.ts';
import { buildTestApp, register, bearer } from '../helper.ts';


const { app, ctx } = await buildTestApp(t);
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const owner = await register(app);
await ctx.tenancy.setPlan(owner.orgId, 'enterprise');
const api = async (method: string, url: string, payload?: unknown) => (await app.inject({ method: method as 'GET', url, headers: bearer(owner.token), ...(payload ? { payload: payload as object } : {}) })).json();
const runner = (await api('POST', '/api/runners', { name: 'setup-test', labels: ['setup-e2e'] })).data;
const root = mkdtempSync(path.join(tmpdir(), 'drift-setup-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

// A PATH with the tools a bare host has, and no node.
const cleanBin = path.join(root, 'clean-bin');
mkdirSync(cleanBin);
const TOOLS = ['bash', 'sh', 'curl', 'tar', 'gzip', 'git', 'env', 'uname', 'mktemp', 'mkdir', 'rm', 'mv', 'ln', 'chmod', 'cat', 'head', 'tail', 'cut', 'readlink', 'dirname', 'sha256sum', 'sleep', 'ls', 'cp', 'grep', 'sed', 'tr'];
for (const tool of TOOLS) {
  const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8', env: { PATH: '/usr/local/bin:/usr/bin:/bin' } }).stdout.trim();
  if (found) symlinkSync(found, path.join(cleanBin, tool));
}
const cleanEnv = { PATH: cleanBin, HOME: root, LANG: 'C' };

const info = await (await fetch(`${base}/api/runners/${runner._id}/setup-info`, { headers: bearer(owner.token) })).json();
const scriptRes = await fetch(info.data.setupUrl);
const script = await scriptRes.text();
writeFileSync(path.join(root, 'setup.sh'), script);
const env: Record<string, string> = { ...cleanEnv, DRIFT_RUNNER_ROOT: path.join(root, 'fs'), DRIFT_SKIP_SYSTEMD: '1', STATE_DIR: path.join(root, 'state') };
// Not spawnSync: the script downloads from this process's server, which must keep answering.
function bash(file: string, scriptEnv: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(cleanBin, 'bash'), [file], { env: scriptEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}
const run = () => bash(path.join(root, 'setup.sh'), env);
const prefix = path.join(root, 'fs', 'opt', 'drift-runner');
const bin = path.join(prefix, 'bin', 'drift-runner');
const envFile = path.join(root, 'fs', 'etc', 'drift-runner', 'runner.env');
const version = () => spawnSync(bin, ['--version'], { encoding: 'utf8', env: cleanEnv }).stdout.trim();
const VERSION_LINE = /^drift-runner 0\.1\.0 \(Node\.js v26\.\d+\.\d+, linux-(x64|arm64)\)$/;

t.test('the clean PATH has no node', async (t) => {
  t.equal(spawnSync(path.join(cleanBin, 'bash'), ['-c', 'command -v node || command -v npm || echo none'], { encoding: 'utf8', env: cleanEnv }).stdout.trim(), 'none');
  t.equal(info.data.apiUrl, base, 'apiUrl is the address the request reached');
  t.equal(scriptRes.status, 200);
  t.match(scriptRes.headers.get('content-type'), /text\/x-shellscript/);
  t.match(script, /^PACKAGE_SHA256='[0-9a-f]{64}'$/m, 'the script carries the package SHA-256');
});

t.test('first run installs the runner and the runtime, and writes the config', async (t) => {
  const first = await run();
  t.equal(first.status, 0, `exit 0\n${first.stdout}\n${first.stderr}`);
  t.match(first.stdout, /downloading Node\.js 26\.\d+\.\d+ for linux-/);
  t.match(first.stdout, /installed drift-runner 0\.1\.0 \(Node\.js v26/);
  t.match(first.stdout, /systemd not used here; start the runner with:/, 'without systemd it says how to start');
  t.notOk((first.stdout + first.stderr).includes(runner.token), 'the token is never printed');
  t.ok(existsSync(bin), 'bin installed under the prefix');
  t.equal(statSync(envFile).mode & 0o777, 0o600, 'runner.env is mode 600');
  t.same(readFileSync(envFile, 'utf8').trim().split('\n'), [`DRIFT_API_URL=${base}`, `DRIFT_RUNNER_TOKEN=${runner.token}`, `DRIFT_RUNNER_STATE_DIR=${path.join(root, 'state')}`]);
  t.match(version(), VERSION_LINE, '--version names the version and the runtime');
  // Start-up of the one-file runner (reported, not asserted: the machine is shared).
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = process.hrtime.bigint();
    spawnSync(bin, ['--version'], { env: cleanEnv });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  t.comment(`drift-runner --version: median ${times[2].toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[4].toFixed(0)}) over 5 starts`);
});

const releases = () => readdirSync(path.join(prefix, 'releases')).sort();
const current = () => readlinkSync(path.join(prefix, 'current'));

t.test('a second run is idempotent', async (t) => {
  const before = current();
  const second = await run();
  t.equal(second.status, 0, `exit 0\n${second.stderr}`);
  t.notMatch(second.stdout, /downloading Node\.js/, 'the runtime is not downloaded again');
  t.equal(statSync(envFile).mode & 0o777, 0o600, 'still mode 600');
  t.equal(readFileSync(envFile, 'utf8').split('\n').filter(Boolean).length, 3, 'the config is rewritten, not appended to');
  t.equal(current(), before, 'the same release');
  t.same(releases(), [before.replace('releases/', '')], 'one release');
  t.match(version(), VERSION_LINE);
});

t.test('the installed runner comes online and completes a scan against moto', async (t) => {
  const w = await createWorld();
  t.teardown(() => w.cleanup());
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: bearer(owner.token), payload: CREDENTIALS })).statusCode, 200);
  const config = (await api('POST', '/api/repo-configs', { repositoryName: `acme/setup-${w.suffix}`, branch: 'main', provider: 'cloud_a', iacPaths: ['infra'], repositoryUrl: w.repoUrl, runnerLabels: ['setup-e2e'] })).data._id;

  const vars = Object.fromEntries(readFileSync(envFile, 'utf8').trim().split('\n').map((l) => l.split(/=(.*)/s).slice(0, 2)));
  const child = spawn(bin, ['start', '--poll-interval', '1', '--heartbeat-interval', '1'], { env: { ...cleanEnv, ...vars, DRIFT_CLOUD_A_ENDPOINT: w.c.endpoint }, stdio: ['ignore', 'ignore', 'pipe'] });
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seen = await until('the runner online', async () => {
    const r = (await api('GET', `/api/runners/${runner._id}`)).data;
    return r.status === 'online' ? r : undefined;
  }, 60_000);
  t.equal(seen.version, '0.1.0', 'it reports its version');
  t.ok(seen.systemInfo.cpu.cores > 0 && seen.systemInfo.memory.totalBytes > 0, 'and its machine');

  const trig = await api('POST', `/api/scans/trigger/${config}`);
  const scan = await until('the scan to finish', async () => {
    const s = (await api('GET', `/api/scans/${trig.data._id}`)).data;
    return s.status === 'completed' || s.status === 'failed' ? s : undefined;
  }, 180_000);
  t.equal(scan.status, 'completed', `the scan completed (${scan.error ?? 'no error'})\n${stderr.slice(-2000)}`);
  t.equal((await ctx.db.db.collection('runner_jobs').findOne({ _id: trig.data._id }))?.runnerId, runner._id, 'on the installed runner');
  child.kill('SIGTERM');
  t.equal(await exited, 0, `SIGTERM: exit 0\n${stderr.slice(-2000)}`);
});

// A file server for the altered packages (the script's URLs can be overridden; its SHA-256 values cannot).
const files = new Map<string, Buffer>();
const server = createServer((req, res) => {
  const body = files.get(req.url ?? '');
  if (!body) { res.writeHead(404).end(); return; }
  res.writeHead(200, { 'content-type': 'application/gzip' }).end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
t.teardown(() => server.close());
const fileBase = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const realPackage = Buffer.from(await (await fetch(info.data.packageUrl)).arrayBuffer());

t.test('a tampered package is refused and nothing changes', async (t) => {
  const before = { current: current(), releases: releases(), env: readFileSync(envFile, 'utf8') };
  files.set('/tampered.tgz', Buffer.concat([realPackage, Buffer.from('x')]));
  const res = await bash(path.join(root, 'setup.sh'), { ...env, DRIFT_RUNNER_PACKAGE_URL: `${fileBase}/tampered.tgz` });
  t.equal(res.status, 1, res.stdout);
  t.match(res.stderr, /the runner package: SHA-256 [0-9a-f]{64}, expected [0-9a-f]{64} \(what the service built\): refused, nothing was changed/);
  t.same({ current: current(), releases: releases(), env: readFileSync(envFile, 'utf8') }, before, 'same release, same config');
  t.match(version(), VERSION_LINE);
});

t.test('an upgrade to a package that does not report in is rolled back', async (t) => {
  // The real package with a bundle that starts (--version) but cannot reach the service.
  const dir = path.join(root, 'broken');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'p.tgz'), realPackage);
  spawnSync('tar', ['-xzf', 'p.tgz'], { cwd: dir });
  rmSync(path.join(dir, 'p.tgz'));
  writeFileSync(path.join(dir, 'lib', 'drift-runner.mjs'), `if (process.argv.includes('--version')) console.log('drift-runner 0.2.0 (broken)');\nelse { console.error('cannot start'); process.exit(1); }\n`);
  writeFileSync(path.join(dir, 'VERSION'), '0.2.0\n');
  spawnSync('tar', ['-czf', path.join(root, 'broken.tgz'), '-C', dir, '.']);
  const broken = readFileSync(path.join(root, 'broken.tgz'));
  files.set('/broken.tgz', broken);
  const lock = runtimeLock();
  const upgrade = renderSetupScript({
    apiUrl: base, runnerId: runner._id, runnerName: 'setup-test', token: runner.token,
    packageUrl: `${fileBase}/broken.tgz`, packageSha256: createHash('sha256').update(broken).digest('hex'), packageVersion: '0.2.0',
    runtimeUrl: info.data.packageUrl.replace('/package.tgz', '/runtime.tgz'), nodeVersion: lock.version, runtimes: lock.platforms,
  });
  writeFileSync(path.join(root, 'upgrade.sh'), upgrade);
  const before = { current: current(), releases: releases() };
  const res = await bash(path.join(root, 'upgrade.sh'), env);
  t.equal(res.status, 1, res.stdout);
  t.match(res.stderr, /the new drift-runner did not report in to .*; rolled back: the previous install is kept/);
  t.same({ current: current(), releases: releases() }, before, 'current still points at the previous release; the new one is gone');
  t.match(version(), VERSION_LINE, 'the previous runner still answers');
});

t.test('a platform without a runtime is refused, naming the supported ones', async (t) => {
  const fake = path.join(root, 'fake-bin');
  mkdirSync(fake);
  writeFileSync(path.join(fake, 'uname'), '#!/bin/sh\nif [ "$1" = "-s" ]; then echo Darwin; else echo arm64; fi\n', { mode: 0o755 });
  const res = await bash(path.join(root, 'setup.sh'), { ...env, PATH: `${fake}:${cleanBin}` });
  t.equal(res.status, 1);
  t.match(res.stderr, /no drift-runner build for darwin-arm64 .*supported platforms: linux-x64, linux-arm64/);
});
