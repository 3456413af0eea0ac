// Issue #10, point 2: statePath and iacPaths name places inside the repository (or S3), checked
// at create and at update: a path out of it is 400 validation_failed naming the field.
import t from 'tap';
import { world } from '../../fixtures/world.ts';

t.test('statePath and iacPaths stay inside the repository, at create and at update', async (t) => {
  const w = await world(t);
  const base = { repositoryName: 'acme/paths', branch: 'main', provider: 'cloud_a' };
  const refusals: [string, Record<string, unknown>, string, RegExp][] = [
    ['an absolute statePath', { statePath: '/etc/shadow' }, 'body/statePath', /^statePath "\/etc\/shadow" must be relative to the repository/],
    ['a statePath leaving with ".."', { statePath: '../../../etc/shadow' }, 'body/statePath', /^statePath "\.\.\/\.\.\/\.\.\/etc\/shadow" must not lead outside the repository/],
    ['a statePath leaving from its IaC path', { iacPaths: ['env'], statePath: '../../x.tfstate' }, 'body/statePath', /^statePath .* \(read from IaC path "env"\)$/],
    ['a statePath with backslashes', { statePath: '..\\..\\etc\\shadow' }, 'body/statePath', /^statePath .* must use forward slashes/],
    ['a statePath under ~', { statePath: '~/.aws/credentials' }, 'body/statePath', /^statePath .* must not start with ~/],
    ['a file:// statePath', { statePath: 'file:///etc/shadow' }, 'body/statePath', /^statePath .* must be s3:\/\/bucket\/key, gs:\/\/bucket\/object, azblob:\/\/account\/container\/blob or a path in the repository/],
    ['iacPaths ../../etc', { iacPaths: ['infra', '../../etc'] }, 'body/iacPaths/1', /^iacPaths\[1\] "\.\.\/\.\.\/etc" must not lead outside the repository/],
    ['an absolute iacPath', { iacPaths: ['/etc'] }, 'body/iacPaths/0', /^iacPaths\[0\] "\/etc" must be relative to the repository/],
  ];
  for (const [why, fields, path, message] of refusals) {
    const res = await w.api('POST', '/api/repo-configs', { ...base, ...fields });
    t.match(res, { status: 400, body: { success: false, error: { code: 'validation_failed', message, details: [{ path }] } } }, `create refuses ${why}, naming ${path}`);
  }
  t.equal((await w.api('POST', '/api/repo-configs', { ...base, statePath: 'a\u0000b' })).status, 400, 'a NUL character: 400 (the body check answers first)');
  t.equal((await w.api('GET', '/api/repo-configs')).body.data.length, 0, 'and stores none of them');

  const ok = await w.api('POST', '/api/repo-configs', { ...base, iacPaths: ['env/prod', 'env/stage/'], statePath: '../state/a.tfstate' });
  t.equal(ok.status, 201, 'a statePath with a ".." that stays inside from every IaC path is fine');
  const id = ok.body.data._id;
  for (const [why, fields, path, message] of refusals) {
    const res = await w.api('PUT', `/api/repo-configs/${id}`, fields);
    t.match(res, { status: 400, body: { error: { code: 'validation_failed', message, details: [{ path }] } } }, `update refuses ${why}`);
  }
  t.match(await w.api('PUT', `/api/repo-configs/${id}`, { iacPaths: [] }), { status: 400, body: { error: { code: 'validation_failed', details: [{ path: 'body/statePath' }] } } },
    'iacPaths that would make the stored statePath leave: refused, naming statePath');
  t.match((await w.api('GET', `/api/repo-configs/${id}`)).body.data, { iacPaths: ['env/prod', 'env/stage/'], statePath: '../state/a.tfstate' }, 'nothing refused was stored');

  for (const statePath of ['s3://bucket/env/prod.tfstate', 'states/prod.tfstate', null]) {
    t.equal((await w.api('PUT', `/api/repo-configs/${id}`, { statePath })).status, 200, `update accepts statePath ${statePath}`);
  }
  t.equal((await w.api('PUT', `/api/repo-configs/${id}`, { iacPaths: ['.', 'a/../b'] })).status, 200, 'and iacPaths inside the repository');
  t.equal((await w.api('PUT', `/api/repo-configs/${id}`, { branch: 'dev' })).status, 200, 'an update naming neither field is not checked against them');
});
