// How a drift was compared (issue 34): `comparedBy` native (the engine's reader) or provider (the
// provider's refresh-only plan), from a runner's result and the scans plugin's own recording;
// absent from older runners and on older records: native. Found again by the other path, the
// same record follows.
import t from 'tap';
import { world, drift } from '../../fixtures/world.ts';

type View = { _id: string; resourceAddress: string; comparedBy: string };

t.test('a runner result with native and provider drifts: each stored and shown with its comparedBy', async (t) => {
  const w = await world(t);
  await w.api('POST', '/api/auth/cloud-a-credentials', { accessKeyId: 'AKIAEXAMPLEEXAMPLE00', secretAccessKey: 'secret-secret-secret-secret', region: 'eu-west-1' });
  const id = await w.config('acme/hybrid', { runnerLabels: ['linux'], repositoryUrl: 'https://git.example.com/acme/hybrid.git' });
  const runner = (await w.api('POST', '/api/runners', { name: 'r', labels: ['linux'] })).body.data as { token: string };
  const agent = async (url: string, payload: unknown = {}) =>
    w.app.inject({ method: 'POST', url, headers: { 'x-runner-token': runner.token }, payload: payload as object });
  const sg = { resourceType: 'aws_security_group', resourceAddress: 'aws_security_group.web', changeType: 'changed', severity: 'critical', comparedBy: 'native',
    diff: [{ attribute: 'ingress', before: [], after: [{ cidr_blocks: ['0.0.0.0/0'] }] }] };
  const alarm = { resourceType: 'aws_cloudwatch_metric_alarm', resourceAddress: 'aws_cloudwatch_metric_alarm.cpu', changeType: 'changed', severity: 'medium', comparedBy: 'provider',
    diff: [{ attribute: 'threshold', before: 80, after: 95 }] };
  const older = { resourceType: 'aws_instance', resourceAddress: 'aws_instance.web', changeType: 'deleted', severity: 'high', diff: [{ attribute: 'id', before: 'i-1', after: null }] };
  const report = async (drifts: unknown[]) => {
    const scan = await w.scans.trigger(w.owner.orgId, id, null);
    t.equal((await agent('/api/runners/jobs')).json().data.job._id, scan._id, 'claimed');
    const res = await agent('/api/runners/jobs/status', { jobId: scan._id, status: 'completed', result: { drifts } });
    return { scan, res };
  };

  const first = await report([sg, alarm, older]);
  t.equal(first.res.json().data.status, 'completed', 'accepted');
  const listed = (await w.api('GET', '/api/drifts?limit=100')).body.data as View[];
  const by = (rows: View[], address: string) => rows.find((d) => d.resourceAddress === address)!;
  t.equal(by(listed, 'aws_security_group.web').comparedBy, 'native', 'GET /api/drifts: the native one');
  t.equal(by(listed, 'aws_cloudwatch_metric_alarm.cpu').comparedBy, 'provider', 'GET /api/drifts: the provider one');
  t.equal(by(listed, 'aws_instance.web').comparedBy, 'native', 'a drift without the field (an older runner): native');
  const alarmId = by(listed, 'aws_cloudwatch_metric_alarm.cpu')._id;
  t.equal((await w.api('GET', `/api/drifts/${alarmId}`)).body.data.comparedBy, 'provider', 'GET /api/drifts/:id');
  t.equal((await w.api('GET', `/api/drifts/scan/${first.scan._id}`)).body.data.find((d: View) => d._id === alarmId).comparedBy, 'provider', 'GET /api/drifts/scan/:id');
  t.equal((await w.ctx.db.db.collection('drifts').findOne({ _id: alarmId as never }))?.comparedBy, 'provider', 'stored on the record');

  // A native reader for the type arrived: the same drift, found by the other path, keeps its record.
  await report([sg, { ...alarm, comparedBy: 'native' }, older]);
  const after = (await w.api('GET', `/api/drifts/${alarmId}`)).body.data;
  t.match(after, { _id: alarmId, comparedBy: 'native', status: 'detected' }, 'found again unchanged by another path: the same record, comparedBy updated');
  await report([sg, { ...alarm, comparedBy: 'provider', diff: [{ attribute: 'threshold', before: 80, after: 99 }] }, older]);
  t.match((await w.api('GET', `/api/drifts/${alarmId}`)).body.data, { comparedBy: 'provider', diff: { changes: [{ attribute: 'threshold', after: 99 }] } }, 're-diffed: updated with the diff');

  const bad = await report([{ ...alarm, comparedBy: 'guess' }]);
  t.equal(bad.res.statusCode, 400, 'an unknown comparedBy is refused');
  t.match(bad.res.json(), { success: false, error: { code: 'validation_failed', message: /comparedBy/ } }, 'naming the field');
});

t.test('recorded results and older records', async (t) => {
  const w = await world(t);
  const id = await w.config('acme/a');
  const scanId = await w.scanWith(id, [{ ...drift('aws_codebuild_project.ci', 'low'), comparedBy: 'provider' }, drift('aws_s3_bucket.b')]);
  const rows = (await w.api('GET', `/api/drifts/scan/${scanId}`)).body.data as View[];
  t.same(rows.map((d) => [d.resourceAddress, d.comparedBy]).sort(), [['aws_codebuild_project.ci', 'provider'], ['aws_s3_bucket.b', 'native']], 'each as reported; absent: native');
  const ci = rows.find((d) => d.resourceAddress === 'aws_codebuild_project.ci')!;
  await w.ctx.db.db.collection('drifts').updateOne({ _id: ci._id as never }, { $unset: { comparedBy: '' } });
  t.equal((await w.api('GET', `/api/drifts/${ci._id}`)).body.data.comparedBy, 'native', 'a record stored before the field: native');
  const q = (await w.api('GET', '/api/drifts/query?limit=100')).body.data as View[];
  t.ok(q.every((d) => d.comparedBy === 'native' || d.comparedBy === 'provider'), '/query shows it on every row');
});
