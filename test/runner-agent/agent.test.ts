// The agent's own parts without a service: backoff bounds, the outbox's order and retry rules,
// and a scan interrupted by a crash being reported failed on the next start.
import t from 'tap';
import type { Test } from 'tap';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOutbox, type JobReport } from '../../runner-agent/src/outbox.ts';
import { ApiError } from '../../runner-agent/src/api.ts';
import { createBackoff } from '../../runner-agent/src/backoff.ts';
import { Agent } from '../../runner-agent/src/agent.ts';
import { parse } from '../../runner-agent/src/cli.ts';
import type { ScanInput, ScanOutcome } from '../../runner-agent/src/engine/index.ts';

/**
 * A loopback service for the agent: `answer(path, body)` gives each call's `data` ({} when it
 * gives nothing); the status reports it receives are kept, in order, in `received`.
 */
async function fakeService<R>(t: Test, answer: (path: string, body: { status?: string } | undefined) => unknown = () => undefined) {
  const received: R[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const parsed = body ? JSON.parse(body) : undefined;
      if (req.url === '/api/runners/jobs/status') received.push(parsed);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: true, data: answer(req.url ?? '', parsed) ?? {} }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, received };
}

const tmp = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'drift-agent-unit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

t.test('backoff doubles to its cap, with jitter in the upper half, and honours Retry-After', async (t) => {
  const low = createBackoff(1000, 8000, () => 0);
  t.same([1, 2, 3, 4, 5].map(() => low.next()), [500, 1000, 2000, 4000, 4000], 'lowest draws: half the doubling ceiling, capped');
  const high = createBackoff(1000, 8000, () => 0.999);
  t.ok([1, 2, 3, 4, 5].map(() => high.next()).every((ms, i) => ms <= Math.min(8000, 1000 * 2 ** i)), 'never above the ceiling');
  high.reset();
  t.equal(high.failures, 0, 'reset after a success');
  t.equal(createBackoff(1000, 8000, () => 0).next(30_000), 30_000, "a server's Retry-After wins");
});

t.test('the outbox delivers in order, drops what the service refuses for good, keeps the rest', async (t) => {
  const box = await createOutbox(tmp());
  const reports: JobReport[] = [{ jobId: 'a', status: 'running' }, { jobId: 'a', status: 'completed', result: { drifts: [] } }, { jobId: 'b', status: 'failed', error: 'x' }];
  for (const r of reports) await box.add(r);
  const sent: string[] = [];
  await t.rejects(box.flush(async (r) => {
    if (r.jobId === 'b') throw new ApiError('down', 503, 'store_unavailable');
    sent.push(`${r.jobId}:${r.status}`);
  }, () => undefined), new ApiError('down', 503, 'store_unavailable'), 'a retryable failure stops the flush');
  t.same(sent, ['a:running', 'a:completed'], 'in the order they were queued');
  t.same((await box.pending()).map((p) => p.report.jobId), ['b'], 'the undelivered one is kept');
  const warnings: string[] = [];
  t.equal(await box.flush(async () => { throw new ApiError('POST /jobs/status -> 404: Job not found', 404, 'not_found'); }, (m) => warnings.push(m)), 1);
  t.match(warnings[0], /dropping the failed report of job b/, 'a 404 (not this runner\'s job any more) is dropped with a warning');
  t.same(await box.pending(), [], 'nothing left');
});

t.test('a scan interrupted by a crash is reported failed on the next start', async (t) => {
  const stateDir = tmp();
  writeFileSync(path.join(stateDir, 'current-job.json'), JSON.stringify({ jobId: 'f'.repeat(24) }));
  const { url, received } = await fakeService<unknown>(t, (at) => (at === '/api/runners/jobs' ? { job: null } : undefined));
  const agent = new Agent({ url, token: 'rn_test', stateDir, pollIntervalMs: 50, heartbeatIntervalMs: 1000, graceMs: 0, log: () => undefined });
  const done = agent.start();
  while (!received.length) await new Promise((r) => setTimeout(r, 20));
  agent.stop();
  await done;
  t.same(received, [{ jobId: 'f'.repeat(24), status: 'failed', error: 'The runner restarted while running the scan; trigger the scan again' }], 'the failure, with the reason');
  t.same(readdirSync(path.join(stateDir, 'outbox')), [], 'delivered, so removed');
});

t.test('command line: flags, environment, checks', async (t) => {
  t.same(parse(['--version'], {}), { command: 'version' });
  const p = parse(['start', '--url', 'https://drift.example.com', '--poll-interval', '2'], { DRIFT_RUNNER_TOKEN: 'rn_abc', DRIFT_RUNNER_STATE_DIR: '/var/lib/x' });
  t.match(p, { command: 'start', options: { url: 'https://drift.example.com', token: 'rn_abc', stateDir: '/var/lib/x', pollIntervalMs: 2000, heartbeatIntervalMs: 30_000, graceMs: 30_000 } });
  t.throws(() => parse(['start', '--token', 'rn_abc'], {}), /--url \(or DRIFT_API_URL\)/);
  t.throws(() => parse(['start', '--url', 'http://x', '--token', 'ci_abc'], {}), /must be a runner token/);
  t.throws(() => parse(['start', '--url', 'http://x', '--token', 'rn_a', '--poll-interval=-1'], {}), /--poll-interval must be a number of seconds/);
});

t.test('SIGTERM during a scan: the scan gets its grace period, is aborted, and its failure is delivered', async (t) => {
  const stateDir = tmp();
  const job = { _id: 'e'.repeat(24), type: 'scan', repositoryConfig: 'c', repositoryName: 'acme/infra', branch: 'main',
    scan: { source: { kind: 'path', path: '/nowhere' }, iacPaths: [], provider: 'cloud_a', credentials: null } };
  let handedOut = false;
  const { url, received } = await fakeService<{ status: string; error?: string }>(t, (at) => {
    if (at !== '/api/runners/jobs') return undefined;
    const given = handedOut ? null : job;
    handedOut = true;
    return { job: given };
  });
  let sawAbort = false;
  // A scan that only ends when aborted.
  const detect = (input: { signal?: AbortSignal }) => new Promise<never>((_, reject) => {
    input.signal!.addEventListener('abort', () => { sawAbort = true; reject(new Error('aborted')); }, { once: true });
  });
  const agent = new Agent({ url, token: 'rn_test', stateDir, pollIntervalMs: 50, heartbeatIntervalMs: 1000, graceMs: 300, log: () => undefined, detect: detect as never });
  const done = agent.start();
  while (!received.length) await new Promise((r) => setTimeout(r, 20));
  const stoppedAt = Date.now();
  agent.stop();
  await done;
  t.ok(Date.now() - stoppedAt >= 250, 'the scan had its grace period');
  t.ok(sawAbort, 'then it was aborted');
  t.same(received.map((r) => r.status), ['running', 'failed'], 'running, then failed');
  t.equal(received[1].error, 'The runner was stopped while running the scan; trigger the scan again');
});

t.test('cancel: a heartbeat naming the job aborts its engine, the job is reported cancelled, and the next job runs', async (t) => {
  const stateDir = tmp();
  const jobOf = (c: string) => ({ _id: c.repeat(24), type: 'scan', repositoryConfig: 'c', repositoryName: 'acme/infra', branch: 'main',
    scan: { source: { kind: 'path', path: '/nowhere' }, iacPaths: [], provider: 'cloud_a', credentials: null } });
  const queue = [jobOf('a'), jobOf('b')];
  let cancelled = false;
  const { url, received } = await fakeService<{ jobId: string; status: string }>(t, (at, body): unknown => {
    if (at === '/api/runners/jobs') return { job: queue.shift() ?? null };
    if (at !== '/api/runners/heartbeat') return undefined;
    // The service cancels job a once the agent said it runs it; a busy heartbeat is told.
    const cancel: boolean = body?.status === 'busy' && received.length > 0 && !cancelled;
    if (cancel) cancelled = true;
    return { status: 'busy', lastHeartbeat: new Date().toISOString(), ...(cancel ? { cancelJobs: ['a'.repeat(24)] } : {}) };
  });
  const signals: AbortSignal[] = [];
  // Job a reads until aborted; job b finishes at once.
  const detect = (input: { signal?: AbortSignal; source: { path?: string } }) => {
    signals.push(input.signal!);
    if (signals.length > 1) return Promise.resolve({ drifts: [], resourcesScanned: 0, stats: { durationMs: 1 } });
    return new Promise<never>((_, reject) => input.signal!.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
  };
  const agent = new Agent({ url, token: 'rn_test', stateDir, pollIntervalMs: 50, heartbeatIntervalMs: 50, graceMs: 0, log: () => undefined, detect: detect as never });
  const done = agent.start();
  const end = Date.now() + 10_000;
  while (received.filter((r) => r.jobId === 'b'.repeat(24) && r.status === 'completed').length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  agent.stop();
  await done;
  t.same(received.filter((r) => r.jobId === 'a'.repeat(24)).map((r) => r.status), ['running', 'cancelled'], 'job a: running, then cancelled');
  t.ok(signals[0].aborted, "job a's engine was aborted");
  t.same(received.filter((r) => r.jobId === 'b'.repeat(24)).map((r) => r.status), ['running', 'completed'], 'the next job runs on a fresh signal');
  t.notOk(signals[1].aborted, "job b's signal was not aborted by a's cancel");
});

t.test("the job's API rates become the engine's budget on the runner; malformed ones leave the defaults", async (t) => {
  const stateDir = tmp();
  const jobOf = (c: string, apiRates: unknown) => ({ _id: c.repeat(24), type: 'scan', repositoryConfig: 'c', repositoryName: 'acme/infra', branch: 'main',
    scan: { source: { kind: 'path', path: '/nowhere' }, iacPaths: [], provider: 'cloud_a', credentials: null, apiRates } });
  const queue = [jobOf('a', { 'aws:iam': 2 }), jobOf('b', { 'aws:iam': -1 })];
  const { url, received } = await fakeService<{ jobId: string; status: string }>(t, (at) => (at === '/api/runners/jobs' ? { job: queue.shift() ?? null } : undefined));
  const inputs: ScanInput[] = [];
  const detect = async (input: ScanInput): Promise<ScanOutcome> => {
    inputs.push(input);
    return {
      drifts: [], resourcesScanned: 0, inventory: [],
      stats: { mode: 'sdk', comparedBy: { native: 0, provider: 0 }, durationMs: 1, sdkCalls: 0, sdkCallsByService: {}, throttledCalls: 1, waitedMs: 250, roots: [], unsupported: {}, ignoredDiffs: 0, ignorePatterns: 0, notCompared: [] },
    };
  };
  const agent = new Agent({ url, token: 'rn_test', stateDir, pollIntervalMs: 50, heartbeatIntervalMs: 1000, graceMs: 0, log: () => undefined, detect });
  const done = agent.start();
  while (received.filter((r) => r.status === 'completed').length < 2) await new Promise((r) => setTimeout(r, 20));
  agent.stop();
  await done;
  t.same(inputs[0].apiBudget, { rates: { 'aws:iam': 2 } }, "the organization's rates, for the runner's own buckets");
  t.notOk('apiRates' in inputs[0], 'not passed on as a scan field');
  t.same(inputs[1].apiBudget, {}, 'a negative rate: ignored, the defaults apply');
  t.match(received.find((r) => r.status === 'completed'), { result: { stats: { throttledCalls: 1, waitedMs: 250 } } }, 'the budget figures go back in the report');
});
