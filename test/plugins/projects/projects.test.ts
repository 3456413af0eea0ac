import t from 'tap';
import { world } from '../../fixtures/world.ts';

const A = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY', region: 'eu-west-1' };

t.test('projects: default, credentials sealed and masked, delete refused while used', async (t) => {
  const w = await world(t);
  const p1 = (await w.api('POST', '/api/projects', { name: 'Main', provider: 'cloud_a' })).body.data;
  t.match(p1, { name: 'Main', provider: 'cloud_a', isDefault: true, repoConfigCount: 0, credentials: { hasCredentials: false } }, 'the first project is the default');
  const p2 = (await w.api('POST', '/api/projects', { name: 'Second', provider: 'cloud_b' })).body.data;
  t.equal(p2.isDefault, false, 'the second is not');
  t.equal((await w.api('POST', '/api/projects', { name: 'x', provider: 'gcp' })).status, 400, 'provider is checked');

  const saved = await w.api('PUT', `/api/projects/${p1._id}/credentials`, { ...A, extra: 'dropped' });
  t.equal(saved.res.headers['ratelimit-limit'], '60', 'under the Credentials limit, like every credentials route');
  t.equal(saved.status, 200);
  t.match(saved.body.data.credentials, { hasCredentials: true, accessKeyId: 'AKIA********MPLE', region: 'eu-west-1' }, 'masked on read');
  t.notOk(saved.body.toString().includes(A.secretAccessKey), 'no secret in the answer');
  const stored = await w.ctx.db.db.collection('projects').findOne({ _id: p1._id } as never);
  t.notOk(JSON.stringify(stored).includes(A.secretAccessKey), 'no secret in the database in clear');
  const svc = w.services.projects!;
  t.same(await svc.credentialValues(w.owner.orgId, p1._id), A, 'the detection engine can open them');
  const wrong = await w.api('PUT', `/api/projects/${p2._id}/credentials`, A);
  t.equal(wrong.status, 400, 'cloud_a fields for a cloud_b project: 400');

  t.equal((await w.api('GET', `/api/projects/${p1._id}`)).body.data.credentials.accessKeyId, 'AKIA********MPLE');
  t.equal((await w.api('PUT', `/api/projects/${p1._id}`, { name: 'Renamed' })).body.data.name, 'Renamed', 'update');
  t.equal((await w.api('PUT', `/api/projects/${p2._id}/default`)).body.data.isDefault, true, 'set default');
  t.equal((await w.api('GET', '/api/projects')).body.data.filter((p: { isDefault: boolean }) => p.isDefault).length, 1, 'one default');

  const c = await w.config('acme/x', { projectId: p1._id });
  t.equal((await w.api('GET', `/api/projects/${p1._id}`)).body.data.repoConfigCount, 1, 'repoConfigCount');
  const refused = await w.api('DELETE', `/api/projects/${p1._id}`);
  t.equal(refused.status, 409, 'delete refused while a config uses it');
  await w.api('PUT', `/api/repo-configs/${c}`, { projectId: null });
  t.equal((await w.api('DELETE', `/api/projects/${p1._id}`)).status, 200, 'deleted once the config moved');
});
