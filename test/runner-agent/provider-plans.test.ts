// The runner agent and hybrid scans (issue 34), against the service listening on loopback: every
// heartbeat says which tofu/terraform binary the runner plans with (GET /api/runners shows it),
// each scan input asks for provider plans with the config's comparison, and the engine's
// comparedBy and providerPlan reach the drift and scan records.
import t from 'tap';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { buildTestApp, register, bearer } from '../helper.ts';
import { Agent } from '../../runner-agent/src/agent.ts';
import { providerPlans } from '../../runner-agent/src/system-info.ts';
import type { ScanInput, ScanOutcome } from '../../runner-agent/src/engine/index.ts';

const tmp = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'drift-agent-plans-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
/** A stand-in binary answering `version -json` as tofu and terraform do. */
const fakeBinary = (name: string, json: string) => {
  const dir = tmp();
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\n[ "$1" = version ] && [ "$2" = -json ] && echo '${json}'\n`);
  chmodSync(file, 0o755);
  return { dir, file };
};
const until = async (what: string, ok: () => Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

t.test('providerPlans(): the binary found, its version, or null', async (t) => {
  const tf = fakeBinary('terraform', '{"terraform_version":"1.11.4","platform":"linux_amd64"}');
  t.same(await providerPlans({ PATH: tf.dir }), { binary: 'terraform', version: '1.11.4' }, 'terraform on PATH');
  const tofu = fakeBinary('tofu', '{"terraform_version":"1.9.1"}');
  t.same(await providerPlans({ PATH: tf.dir, DRIFT_TOFU_BINARY: tofu.file }), { binary: 'tofu', version: '1.9.1' }, 'DRIFT_TOFU_BINARY wins');
  t.equal(await providerPlans({ PATH: tmp() }), null, 'none on PATH: null');
  const odd = fakeBinary('terraform', '{"terraform_version":"1.11.4 (custom build; $(id))"}');
  t.equal(await providerPlans({ PATH: odd.dir }), null, 'a version the service would refuse: null, so the heartbeat still goes through');
  let real: string | undefined;
  try { real = execFileSync('sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).trim(); } catch { /* none */ }
  await t.test("the machine's terraform", { skip: real ? false : 'no terraform on this machine' }, async (t) => {
    t.match(await providerPlans({ PATH: path.dirname(real!) }), { binary: 'terraform', version: /^\d+\.\d+\.\d+/ }, `${real} reports its version`);
  });
});

t.test('heartbeats report the binary; a scan asks for plans and its comparedBy and providerPlan are recorded', async (t) => {
  const { app } = await buildTestApp(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const s = await register(app);
  const h = bearer(s.token);
  const api = async (method: 'GET' | 'POST' | 'PUT', u: string, payload?: object) =>
    (await app.inject({ method, url: u, headers: h, ...(payload ? { payload } : {}) })).json().data;
  const config = await api('POST', '/api/repo-configs', {
    repositoryName: 'acme/hybrid', branch: 'main', provider: 'cloud_a', comparison: 'provider', runnerLabels: ['linux'], repositoryUrl: 'https://git.example.com/acme/hybrid.git',
  });
  const runner = await api('POST', '/api/runners', { name: 'planner', labels: ['linux'] });
  const scan = await api('POST', `/api/scans/trigger/${config._id}`);

  const tf = fakeBinary('terraform', '{"terraform_version":"1.11.4"}');
  const inputs: ScanInput[] = [];
  const detect = async (input: ScanInput): Promise<ScanOutcome> => {
    inputs.push(input);
    return {
      drifts: [{ resourceType: 'aws_cloudwatch_metric_alarm', resourceAddress: 'aws_cloudwatch_metric_alarm.cpu', changeType: 'changed', severity: 'medium',
        diff: [{ attribute: 'threshold', before: 80, after: 95 }], comparedBy: 'provider' }],
      resourcesScanned: 2, inventory: [],
      stats: { mode: 'sdk', durationMs: 5, sdkCalls: 0, sdkCallsByService: {}, roots: [], unsupported: {}, ignoredDiffs: 0, ignorePatterns: 0, notCompared: [],
        comparedBy: { native: 0, provider: 2 }, providerPlan: { ran: true, binary: 'terraform 1.11.4', targets: 0, compared: 2, durationMs: 3 } },
    };
  };
  const agent = new Agent({ url, token: runner.token, stateDir: tmp(), pollIntervalMs: 100, heartbeatIntervalMs: 200, graceMs: 0, log: () => undefined, detect, env: { PATH: tf.dir } });
  const done = agent.start();
  t.teardown(async () => { agent.stop(); await done; });
  await until('the scan to complete', async () => (await api('GET', `/api/scans/${scan._id}`)).status === 'completed');

  t.same((await api('GET', `/api/runners/${runner._id}`)).providerPlans, { binary: 'terraform', version: '1.11.4' }, 'GET /api/runners/:id: the binary the heartbeat named');
  t.same((await api('GET', '/api/runners')).find((r: { _id: string }) => r._id === runner._id).providerPlans, { binary: 'terraform', version: '1.11.4' }, 'and the list');
  t.match(inputs, [{ comparison: 'provider', providerPlans: true }], 'the engine input: the config comparison, plans allowed');
  t.notOk('allowPlanPrograms' in inputs[0] || 'confined' in inputs[0], 'a runner is not the confined built-in executor');
  const drifts = await api('GET', `/api/drifts/scan/${scan._id}`);
  t.match(drifts, [{ resourceAddress: 'aws_cloudwatch_metric_alarm.cpu', comparedBy: 'provider' }], 'the drift says the plan compared it');
  t.match((await api('GET', `/api/scans/${scan._id}`)).stats, { compared: 2, comparedBy: { native: 0, provider: 2 }, providerPlan: { ran: true, binary: 'terraform 1.11.4', compared: 2 } }, 'the scan stats');

  // Another runner without a binary: reportIn (drift-runner check) says null.
  const bare = await api('POST', '/api/runners', { name: 'bare', labels: ['linux'] });
  await new Agent({ url, token: bare.token, stateDir: tmp(), pollIntervalMs: 100, heartbeatIntervalMs: 200, graceMs: 0, log: () => undefined, env: { PATH: tmp() } }).reportIn();
  t.match(await api('GET', `/api/runners/${bare._id}`), { status: 'online', providerPlans: null }, 'no binary: online, providerPlans null');
});
