// `npm run bench -- events` (issue #24): a 10,000-resource state against real resources in a
// private moto (scripts/bench/scan.ts builds the cloud), scanned through the service in this
// process (built-in executor, the embedded database):
//   1. event to drift: a security group opened out of band and its CloudTrail record posted;
//      the time from the POST to the drift record readable through GET /api/drifts, through the
//      targeted re-check (debounce 0: the check job's run called at once), side by side with a
//      full scan of the same state in the same run (trigger to completed). The ratio is the figure.
//   2. ingestion: BENCH_EVENT_BATCHES (50) batches of 100 write events on managed resources, and
//      the same on unmanaged ones: batches and events per second, database commands per batch.
// BENCH_EVENTS_SIZE (10000) sizes the state.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { AuthorizeSecurityGroupIngressCommand, EC2Client } from '@aws-sdk/client-ec2';
import { startMoto } from './private-moto.ts';
import { buildCloud, writeState } from './scan.ts';
import { fmt, REPO, table } from './lib.ts';

const SIZE = Number(process.env.BENCH_EVENTS_SIZE ?? 10_000);
const BATCHES = Number(process.env.BENCH_EVENT_BATCHES ?? 50);
const DATA = path.resolve(process.env.DRIFT_DATA_DIR ?? path.join(REPO, '.data'));
const CREDS = { accessKeyId: 'bench', secretAccessKey: 'bench', region: 'us-east-1' };
const log = (s: string) => process.stderr.write(`bench events: ${s}\n`);

const record = (eventName: string, requestParameters: object, at = new Date()) => ({
  eventVersion: '1.08', eventID: randomUUID(), eventTime: at.toISOString().replace(/\.\d{3}Z$/, 'Z'), eventSource: 'ec2.amazonaws.com', eventName,
  awsRegion: 'us-east-1', sourceIPAddress: '192.0.2.1', userAgent: 'aws-cli/2.13.5', readOnly: false, eventType: 'AwsApiCall', recipientAccountId: '123456789012',
  userIdentity: { type: 'IAMUser', principalId: 'AIDAEXAMPLE', arn: 'arn:aws:iam::123456789012:user/bench', accountId: '123456789012', userName: 'bench' },
  requestParameters, responseElements: { _return: true },
});

interface Ingestion { label: string; batchesPerSec: number; eventsPerSec: number; commandsPerBatch: number; perBatch: string }
interface BenchResult {
  size: number; cloudBuildSeconds: number;
  eventToDrift: { ms: number; postMs: number; addresses: string[] };
  fullScan: { firstMs: number; secondMs: number; drifts: number };
  ratio: number; ingestion: Ingestion[];
}

/** The result written to .data/bench/events-<time>.json and printed as two tables. */
function report(result: BenchResult): void {
  const dir = path.join(DATA, 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `events-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ node: process.version, cpus: os.cpus().length, ...result }, null, 2)}\n`);
  console.log([
    `Cloud events benchmark: a ${SIZE}-resource state in a private moto, node ${process.version}, ${os.cpus().length} CPUs`,
    '',
    '1. Event to drift record (targeted re-check) vs a full scan of the same state, same run',
    table(['path', 'seconds', 'resources read', 'ratio to full scan'], [
      ['event -> targeted re-check -> drift (GET /api/drifts)', fmt(result.eventToDrift.ms / 1000), result.eventToDrift.addresses.length, result.ratio.toPrecision(3)],
      ['full scan (trigger -> completed), 2nd', fmt(result.fullScan.secondMs / 1000), SIZE, 1],
      ['full scan, 1st (records the inventory)', fmt(result.fullScan.firstMs / 1000), SIZE, fmt(result.fullScan.firstMs / result.fullScan.secondMs)],
    ]),
    `   the POST itself (store + re-check queued): ${fmt(result.eventToDrift.postMs)} ms`,
    '',
    `2. Ingestion: ${BATCHES} batches of 100 write events`,
    table(['events on', 'batches/s', 'events/s', 'db commands/batch'], result.ingestion.map((r) => [r.label, fmt(r.batchesPerSec), fmt(r.eventsPerSec), fmt(r.commandsPerBatch)])),
    ...result.ingestion.map((r) => `   ${r.label}: ${r.perBatch}`),
    '',
    `data: ${path.relative(REPO, file)}`,
  ].join('\n'));
}

async function main(): Promise<void> {
  process.env.CLOUD_EVENTS_DEBOUNCE_SECONDS = '0';
  const moto = await startMoto(REPO, DATA, 'moto-bench-events.log', log);
  const repo = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-events-'));
  const { buildApp } = await import('../../core/app.ts');
  const { loadConfig } = await import('../../core/config.ts');
  const { serviceUrls, TEST_SECRETS } = await import('../../test/helper.ts');
  const { mongoUri, redisUrl } = serviceUrls();
  const name = `bench_events_${Date.now()}`;
  const config = loadConfig({}, {
    MONGODB_URI: mongoUri, REDIS_URL: redisUrl, MONGODB_DB: name, REDIS_KEY_PREFIX: `${name}:`, NODE_ENV: 'production', LOG_LEVEL: 'silent',
    DRIFT_CLOUD_A_ENDPOINT: moto.endpoint, EXECUTOR_LOCAL_SOURCES: true, SCAN_TIMEOUT_MINUTES: 60, ...TEST_SECRETS,
  });
  config.operator = { plugins: {} };
  const built = await buildApp({ config, logger: false });
  const { app, ctx, services } = built;
  try {
    writeFileSync(path.join(repo, 'main.tf'), 'provider "aws" {\n  region = "us-east-1"\n}\n');
    const { kinds, secs } = await buildCloud(moto.endpoint, SIZE);
    writeState(repo, kinds, SIZE, SIZE);
    log(`cloud of ${SIZE} resources built in ${secs.toFixed(0)}s`);

    const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: `events-bench-${Date.now()}@example.com`, password: 'correct horse battery staple' } });
    const jwt = reg.json().token as string;
    const orgId = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${jwt}` } })).json().defaultOrgId as string;
    await ctx.tenancy.setPlan(orgId, 'enterprise');
    const api = async (method: 'GET' | 'POST', url: string, payload?: object, token = jwt) => {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'x-org-id': orgId }, ...(payload ? { payload } : {}) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    await api('POST', '/api/auth/cloud-a-credentials', CREDS);
    const configId = (await api('POST', '/api/repo-configs', { repositoryName: 'bench/events', branch: 'main', provider: 'cloud_a', repositoryUrl: repo, statePath: `state-${SIZE}.json` })).data._id as string;
    const scans = services.scans!;
    const executor = services.executor!;
    const events = services['cloud-events']!;

    const fullScan = async (label: string) => {
      const t0 = performance.now();
      const scan = await scans.trigger(orgId, configId, null);
      const outcome = await executor.execute(orgId, scan._id);
      const done = (await api('GET', `/api/scans/${scan._id}`)).data;
      if (outcome !== 'ran' || done.status !== 'completed') throw new Error(`${label}: ${outcome} ${done.status} ${done.error}`);
      const ms = performance.now() - t0;
      log(`${label}: ${(ms / 1000).toFixed(1)}s, ${done.driftCount} drifts`);
      return { ms, drifts: done.driftCount as number };
    };
    // The first full scan records the managed inventory the re-checks look resources up in.
    const first = await fullScan('full scan 1 (records the inventory)');

    // 1. Event to drift through the targeted re-check.
    const token = (await api('POST', '/api/cloud-events/tokens', { name: 'bench' })).data.token as string;
    const sg = kinds.sg[1].attributes.id as string;
    const ec2 = new EC2Client({ endpoint: moto.endpoint, region: 'us-east-1', credentials: CREDS });
    await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: sg, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 8443, ToPort: 8443, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
    ec2.destroy();
    const t0 = performance.now();
    const posted = await app.inject({ method: 'POST', url: '/api/cloud-events', headers: { authorization: `Bearer ${token}` },
      payload: record('AuthorizeSecurityGroupIngress', { groupId: sg, ipPermissions: { items: [{ ipProtocol: 'tcp', fromPort: 8443, toPort: 8443, ipRanges: { items: [{ cidrIp: '0.0.0.0/0' }] } }] } }) });
    if (posted.json().accepted !== 1) throw new Error(`event: ${posted.body}`);
    const tPosted = performance.now();
    // What the check job does when the (zero) debounce window closes.
    const check = await events.checks.run(orgId, configId, new Date());
    if (!check || !('scan' in check)) throw new Error(`no targeted scan: ${JSON.stringify(check)}`);
    if ((await executor.execute(orgId, check.scan._id)) !== 'ran') throw new Error('targeted scan did not run');
    const drift = (await api('GET', `/api/drifts?resourceId=${sg}&status=detected`)).data[0];
    const eventMs = performance.now() - t0;
    if (!drift?.cause) throw new Error(`no attributed drift for ${sg}: ${JSON.stringify(drift)}`);
    log(`event to drift: ${(eventMs / 1000).toFixed(2)}s (${check.scan.trigger?.addresses.length} address read), actor ${drift.cause.actor}`);

    const second = await fullScan('full scan 2 (the same state)');

    // 2. Ingestion of 100-event batches.
    const instances = kinds.instance.map((r) => r.attributes.id as string);
    const ingest = async (label: string, idOf: (i: number) => string) => {
      let commands = 0; const byName = new Map<string, number>();
      const count = (e: { commandName: string; command: Record<string, unknown> }) => {
        const key = `${e.commandName} ${String(e.command[e.commandName])}`;
        byName.set(key, (byName.get(key) ?? 0) + 1);
      };
      ctx.db.client.on('commandStarted', count);
      const start = performance.now();
      for (let b = 0; b < BATCHES; b++) {
        const batch = Array.from({ length: 100 }, (_, i) => record('CreateTags', { resourcesSet: { items: [{ resourceId: idOf(b * 100 + i) }] }, tagSet: { items: [{ key: 'k', value: String(b) }] } }));
        const before = ctx.db.commandCount();
        const res = await app.inject({ method: 'POST', url: '/api/cloud-events', headers: { authorization: `Bearer ${token}` }, payload: batch });
        if (res.statusCode !== 200 || res.json().accepted !== 100) throw new Error(`batch ${b}: ${res.statusCode} ${res.body}`);
        commands += ctx.db.commandCount() - before;
      }
      const ms = performance.now() - start;
      ctx.db.client.off('commandStarted', count);
      const perBatch = [...byName.entries()].map(([k, n]) => `${k}: ${fmt(n / BATCHES)}`).join('; ');
      return { label, batches: BATCHES, seconds: ms / 1000, batchesPerSec: BATCHES / (ms / 1000), eventsPerSec: (BATCHES * 100) / (ms / 1000), commandsPerBatch: commands / BATCHES, perBatch };
    };
    // Rate limit of the route: 600 batches a minute per organization; the bench stays below it.
    const managed = await ingest('managed instances (re-checks queued)', (i) => instances[i % instances.length]);
    const unmanaged = await ingest('unmanaged ids (stored only)', (i) => `i-unmanaged${i.toString(16).padStart(8, '0')}`);

    const result: BenchResult = {
      size: SIZE, cloudBuildSeconds: secs,
      eventToDrift: { ms: eventMs, postMs: tPosted - t0, addresses: check.scan.trigger?.addresses ?? [] },
      fullScan: { firstMs: first.ms, secondMs: second.ms, drifts: second.drifts },
      ratio: eventMs / second.ms, ingestion: [managed, unmanaged],
    };
    report(result);
  } finally {
    await ctx.db.db.dropDatabase().catch(() => undefined);
    await app.close();
    moto.stop();
    rmSync(repo, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(`bench events: ${e instanceof Error ? e.stack : String(e)}`);
  process.exit(1);
});
