// A watch's runs end to end through the built-in executor: real resources in moto, the HCL in a
// local git repository, the state in S3 (test/engine/world.ts). A bucket's versioning is
// suspended out of band (drift_detected), enabled again (drift_resolved), then nothing changes
// (check_passed).
import t from 'tap';
import { PutBucketVersioningCommand } from '@aws-sdk/client-s3';
import { createWorld, CREDENTIALS } from '../../engine/world.ts';
import { buildTestApp, register, bearer } from '../../helper.ts';

t.test('detected, then resolved, then passed, each run scanning through the built-in executor', async (t) => {
  const world = await createWorld();
  t.teardown(() => world.cleanup());
  const { app, ctx, services } = await buildTestApp(t, { env: { DRIFT_CLOUD_A_ENDPOINT: world.c.endpoint } });
  const owner = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'pro');
  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, headers: bearer(owner.token), ...(payload ? { payload } : {}) });
    return res.json();
  };
  await api('POST', '/api/auth/cloud-a-credentials', CREDENTIALS);
  const config = (await api('POST', '/api/repo-configs', { repositoryName: 'acme/watched', branch: 'main', provider: 'cloud_a', iacPaths: ['infra'], repositoryUrl: world.repoUrl })).data._id;
  const watch = await api('POST', '/api/drift-watch', { name: 'Prod', repositoryId: config, interval: '24h' });
  const watches = services['drift-watch']!;
  const executor = services.executor!;

  let at = Date.now();
  async function runOnce(label: string) {
    at += 24 * 3_600_000;
    const out = await watches.tick(owner.orgId, watch._id, new Date(at));
    if (!out.ran || !out.scanId) throw new Error(`${label}: no run (${JSON.stringify(out)})`);
    t.equal(await executor.execute(owner.orgId, out.scanId), 'ran', `${label}: the built-in executor ran the scan`);
    const scan = (await api('GET', `/api/scans/${out.scanId}`)).data;
    t.equal(scan.status, 'completed', `${label}: scan completed (${scan.error ?? 'no error'})`);
    return { scanId: out.scanId, watch: await api('GET', `/api/drift-watch/${watch._id}`), events: (await api('GET', `/api/drift-watch/events?watchId=${watch._id}&limit=100`)).events };
  }
  const byType = (events: { type: string; scanId: string }[], scanId: string) => events.filter((e) => e.scanId === scanId).map((e) => e.type).sort();

  await world.c.s3.send(new PutBucketVersioningCommand({ Bucket: world.bucket, VersioningConfiguration: { Status: 'Suspended' } }));
  const first = await runOnce('drift');
  t.same(byType(first.events, first.scanId), ['drift_detected'], 'run 1: drift_detected');
  const detected = first.events.find((e: { scanId: string }) => e.scanId === first.scanId);
  t.match(detected, { resourceAddress: 'aws_s3_bucket_versioning.data', severity: 'medium' }, 'for the suspended versioning');
  t.match(first.watch, { driftCount: 1, lastRunStatus: 'drift', lastScanId: first.scanId });

  await world.c.s3.send(new PutBucketVersioningCommand({ Bucket: world.bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  const second = await runOnce('undone');
  t.same(byType(second.events, second.scanId), ['check_passed', 'drift_resolved'], 'run 2: drift_resolved (and nothing left open: check_passed)');
  t.equal(second.events.find((e: { type: string; scanId: string }) => e.type === 'drift_resolved')?.driftId, detected.driftId, 'the same drift resolved');
  t.match(second.watch, { driftCount: 0, lastRunStatus: 'passed' });

  const third = await runOnce('quiet');
  t.same(byType(third.events, third.scanId), ['check_passed'], 'run 3: check_passed');
  t.match(await api('GET', '/api/drift-watch/events/summary'), { totalEvents: 4, driftDetected: 1, driftResolved: 1, checksPassed: 2, activeWatches: 1 });
});
