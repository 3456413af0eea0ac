// A repository config's `comparison` (issue 34): auto by default, native or provider when asked,
// on every view; a bad value is a 400 in the error shape; a config stored before the field reads
// auto; and the scan input a runner receives carries it.
import t from 'tap';
import { world } from '../../fixtures/world.ts';

t.test('comparison: default, create, update, every view, refused values, older configs', async (t) => {
  const w = await world(t);
  const plain = (await w.api('POST', '/api/repo-configs', { repositoryName: 'acme/plain', branch: 'main', provider: 'cloud_a' })).body.data;
  t.equal(plain.comparison, 'auto', 'created without it: auto');
  const native = await w.api('POST', '/api/repo-configs', { repositoryName: 'acme/native', branch: 'main', provider: 'cloud_a', comparison: 'native' });
  t.equal(native.status, 201);
  t.equal(native.body.data.comparison, 'native', 'created with native');

  const id = native.body.data._id as string;
  t.equal((await w.api('GET', `/api/repo-configs/${id}`)).body.data.comparison, 'native', 'GET /:id');
  t.equal((await w.api('GET', `/api/repo-configs/${id}/edit`)).body.data.comparison, 'native', 'the edit view');
  const listed = (await w.api('GET', '/api/repo-configs')).body.data as { _id: string; comparison: string }[];
  t.same(listed.map((c) => [c._id, c.comparison]).sort(), [[id, 'native'], [plain._id, 'auto']].sort(), 'the list');

  const upd = await w.api('PUT', `/api/repo-configs/${id}`, { comparison: 'provider' });
  t.equal(upd.status, 200);
  t.equal(upd.body.data.comparison, 'provider', 'updated to provider');
  const other = await w.api('PUT', `/api/repo-configs/${id}`, { branch: 'develop' });
  t.equal(other.body.data.comparison, 'provider', 'an update naming other fields keeps it');
  const stored = await w.ctx.db.db.collection('repo_configs').findOne({ _id: id as never });
  t.equal(stored?.comparison, 'provider', 'stored');

  for (const [how, send] of [
    ['create', () => w.api('POST', '/api/repo-configs', { repositoryName: 'acme/bad', branch: 'main', provider: 'cloud_a', comparison: 'plan' })],
    ['update', () => w.api('PUT', `/api/repo-configs/${id}`, { comparison: 'plan' })],
    ['update with null', () => w.api('PUT', `/api/repo-configs/${id}`, { comparison: null })],
  ] as const) {
    const bad = await send();
    t.equal(bad.status, 400, `${how}: an unknown value is a 400`);
    t.match(bad.body, { success: false, error: { code: 'validation_failed', message: /^body\/comparison must be/, details: [{ path: 'body/comparison' }] } }, `${how}: in the error shape, naming the field`);
  }
  t.equal((await w.api('GET', `/api/repo-configs/${id}`)).body.data.comparison, 'provider', 'a refused update changed nothing');

  await w.ctx.db.db.collection('repo_configs').updateOne({ _id: plain._id as never }, { $unset: { comparison: '' } });
  t.equal((await w.api('GET', `/api/repo-configs/${plain._id}`)).body.data.comparison, 'auto', 'a config stored before the field: auto');
});

t.test('the scan input carries the config comparison (runner job)', async (t) => {
  const w = await world(t);
  const id = await w.config('acme/hybrid', { comparison: 'provider', runnerLabels: ['linux'], repositoryUrl: 'https://git.example.com/acme/hybrid.git' });
  const old = await w.config('acme/older', { runnerLabels: ['linux'], repositoryUrl: 'https://git.example.com/acme/older.git' });
  await w.ctx.db.db.collection('repo_configs').updateOne({ _id: old as never }, { $unset: { comparison: '' } });
  const runner = (await w.api('POST', '/api/runners', { name: 'r', labels: ['linux'] })).body.data as { token: string };
  const claim = async () => (await w.app.inject({ method: 'POST', url: '/api/runners/jobs', headers: { 'x-runner-token': runner.token } })).json().data.job;
  const done = (jobId: string) => w.app.inject({ method: 'POST', url: '/api/runners/jobs/status', headers: { 'x-runner-token': runner.token }, payload: { jobId, status: 'completed', result: { drifts: [] } } });

  const scan = await w.scans.trigger(w.owner.orgId, id, null);
  const job = await claim();
  t.equal(job._id, scan._id);
  t.equal(job.scan.comparison, 'provider', 'the job names the config comparison');
  await done(job._id);
  await w.scans.trigger(w.owner.orgId, old, null);
  t.equal((await claim()).scan.comparison, 'auto', 'a config stored before the field: auto');
});
