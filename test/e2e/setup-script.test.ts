// The runner install script, run for real: fetched from the service listening on a port, run
// with bash into a temporary root (DRIFT_RUNNER_ROOT), twice (idempotent). It installs the
// agent package the service serves (npm install from the tarball, dependencies from the npm
// registry), and the installed `drift-runner` starts with the written config and comes online.
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildTestApp, register, bearer } from '../helper.ts';

// npm install of the agent's dependencies can take a minute on a cold cache.
t.setTimeout(600_000);

const { app } = await buildTestApp(t);
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const owner = await register(app);
const runner = (await app.inject({ method: 'POST', url: '/api/runners', headers: bearer(owner.token), payload: { name: 'setup-test', labels: ['linux'] } })).json().data;
const root = mkdtempSync(path.join(tmpdir(), 'drift-setup-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

const info = await (await fetch(`${base}/api/runners/${runner._id}/setup-info`, { headers: bearer(owner.token) })).json();
const scriptRes = await fetch(info.data.setupUrl);
const script = await scriptRes.text();
writeFileSync(path.join(root, 'setup.sh'), script);
const env = { ...process.env, DRIFT_RUNNER_ROOT: path.join(root, 'fs'), DRIFT_SKIP_SYSTEMD: '1', STATE_DIR: path.join(root, 'state') };
// Not spawnSync: the script downloads the package from this process's server, which must keep answering.
function bash(scriptEnv: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [path.join(root, 'setup.sh')], { env: scriptEnv, stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}
const run = () => bash(env);
const prefix = path.join(root, 'fs', 'opt', 'drift-runner');
const envFile = path.join(root, 'fs', 'etc', 'drift-runner', 'runner.env');

t.test('setup-info points at the listening service', async (t) => {
  t.equal(info.data.apiUrl, base, 'apiUrl is the address the request reached');
  t.equal(scriptRes.status, 200);
  t.match(scriptRes.headers.get('content-type'), /text\/x-shellscript/);
});

t.test('first run installs the agent and writes its config', async (t) => {
  const first = await run();
  t.equal(first.status, 0, `exit 0\n${first.stdout}\n${first.stderr}`);
  t.match(first.stdout, /installed drift-runner 0\.1\.0/);
  t.match(first.stdout, /systemd not used here; start the runner with:/, 'without systemd it says how to start');
  t.ok(existsSync(path.join(prefix, 'bin', 'drift-runner')), 'bin installed under the prefix');
  t.equal(statSync(envFile).mode & 0o777, 0o600, 'runner.env is mode 600');
  t.same(readFileSync(envFile, 'utf8').trim().split('\n'), [`DRIFT_API_URL=${base}`, `DRIFT_RUNNER_TOKEN=${runner.token}`, `DRIFT_RUNNER_STATE_DIR=${path.join(root, 'state')}`]);
  const version = spawnSync(path.join(prefix, 'bin', 'drift-runner'), ['--version'], { encoding: 'utf8' });
  t.equal(version.stdout.trim(), '0.1.0', 'the installed drift-runner --version works');
});

t.test('a second run is idempotent', async (t) => {
  const second = await run();
  t.equal(second.status, 0, `exit 0\n${second.stderr}`);
  t.equal(statSync(envFile).mode & 0o777, 0o600, 'still mode 600');
  t.equal(readFileSync(envFile, 'utf8').split('\n').filter(Boolean).length, 3, 'the config is rewritten, not appended to');
  t.equal(spawnSync(path.join(prefix, 'bin', 'drift-runner'), ['--version'], { encoding: 'utf8' }).stdout.trim(), '0.1.0');
});

t.test('the installed agent starts from the written config and comes online', async (t) => {
  const vars = Object.fromEntries(readFileSync(envFile, 'utf8').trim().split('\n').map((l) => l.split(/=(.*)/s).slice(0, 2)));
  const child = spawn(path.join(prefix, 'bin', 'drift-runner'), ['start', '--poll-interval', '1', '--heartbeat-interval', '1'], { env: { ...process.env, ...vars }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let status = 'offline';
  for (let i = 0; i < 100 && status !== 'online'; i++) {
    await new Promise((r) => setTimeout(r, 200));
    status = (await app.inject({ method: 'GET', url: `/api/runners/${runner._id}`, headers: bearer(owner.token) })).json().data.status;
  }
  t.equal(status, 'online', 'the heartbeat reached the service');
  const seen = (await app.inject({ method: 'GET', url: `/api/runners/${runner._id}`, headers: bearer(owner.token) })).json().data;
  t.equal(seen.version, '0.1.0', 'it reports its version');
  t.ok(seen.systemInfo.cpu.cores > 0 && seen.systemInfo.memory.totalBytes > 0 && seen.systemInfo.disk.totalBytes > 0, 'and CPU, memory and disk');
  child.kill('SIGTERM');
  t.equal(await exited, 0, `SIGTERM: exit 0\n${stderr}`);
});

t.test('the script refuses an old Node', async (t) => {
  // A fake `node` first on PATH that reports version 18.
  const bin = path.join(root, 'oldnode');
  spawnSync('mkdir', ['-p', bin]);
  writeFileSync(path.join(bin, 'node'), '#!/bin/sh\nif [ "$1" = "-p" ]; then echo 18; else echo v18.0.0; fi\n', { mode: 0o755 });
  const res = await bash({ ...env, PATH: `${bin}:${process.env.PATH}` });
  t.equal(res.status, 1);
  t.match(res.stderr, /Node\.js 20 or later is required; this machine has v18\.0\.0/);
});
