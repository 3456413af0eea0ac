import t from 'tap';
import { world } from '../../fixtures/world.ts';

t.test('create, list, read, edit view, update, stats, delete', async (t) => {
  const w = await world(t);
  const created = await w.api('POST', '/api/repo-configs', { repositoryName: 'acme/infra', branch: 'main', iacPaths: ['tf/'], provider: 'cloud_b' });
  t.equal(created.status, 201, 'create answers 201');
  const c = created.body.data;
  t.match(c, { repositoryName: 'acme/infra', branch: 'main', iacPaths: ['tf/'], provider: 'cloud_b', status: 'active', scheduleCron: null, lastScanAt: null }, 'with the config');
  const ws = await w.api('GET', '/api/workspaces');
  const def = ws.body.data.find((x: { isDefault: boolean }) => x.isDefault);
  t.equal(c.workspaceId, def._id, 'in the default workspace');
  t.equal(def.repoConfigCount, 1, 'which counts it');

  t.same((await w.api('GET', '/api/repo-configs')).body.data.map((x: { _id: string }) => x._id), [c._id], 'listed');
  t.equal((await w.api('GET', `/api/repo-configs/${c._id}`)).body.data._id, c._id, 'read by id');
  t.match((await w.api('GET', `/api/repo-configs/${c._id}/edit`)).body.data, { _id: c._id, nextScheduledAt: null }, 'edit view');

  const upd = await w.api('PUT', `/api/repo-configs/${c._id}`, { branch: 'develop' });
  t.equal(upd.status, 200);
  t.equal(upd.body.data.branch, 'develop', 'update changes the field');
  t.equal(upd.body.data.repositoryName, 'acme/infra', 'and keeps the others');

  t.match(c, { repositoryUrl: null, runnerLabels: [], statePath: null }, 'where to scan from: unset until given');
  const where = await w.api('PUT', `/api/repo-configs/${c._id}`, { repositoryUrl: ' https://git.example.com/acme/infra.git ', runnerLabels: ['linux', 'aws'], statePath: 's3://state/infra.tfstate' });
  t.match(where.body.data, { repositoryUrl: 'https://git.example.com/acme/infra.git', runnerLabels: ['linux', 'aws'], statePath: 's3://state/infra.tfstate', branch: 'develop' }, 'repositoryUrl, runnerLabels and statePath are set (trimmed), the rest kept');
  const cleared = await w.api('PUT', `/api/repo-configs/${c._id}`, { repositoryUrl: null, runnerLabels: [], statePath: null });
  t.match(cleared.body.data, { repositoryUrl: null, runnerLabels: [], statePath: null }, 'and cleared with null and []');
  for (const [field, value, why] of [
    ['repositoryUrl', 'relative/path', 'a repositoryUrl that is neither a URL nor an absolute path'],
    ['runnerLabels', ['ok', 'has space'], 'a label with a space'],
    ['runnerLabels', ['a', 'a'], 'a repeated label'],
    ['statePath', '', 'an empty statePath'],
  ] as const) {
    const refused = await w.api('PUT', `/api/repo-configs/${c._id}`, { [field]: value });
    t.equal(refused.status, 400, `refuses ${why}`);
  }
  for (const secret of ['https://x-access-token:ghp_abc@github.com/acme/infra.git', 'https://ghp_abc@github.com/acme/infra.git', 'ssh://git:hunter2@git.example.com/acme/infra.git']) {
    const refused = await w.api('PUT', `/api/repo-configs/${c._id}`, { repositoryUrl: secret });
    t.match(refused, { status: 400, body: { error: { code: 'bad_request', message: /^repositoryUrl must not contain credentials/ } } }, `refuses credentials in ${secret.replace(/\/\/.*@/, '//…@')}`);
    t.notOk(JSON.stringify(refused.body).includes('ghp_abc') || JSON.stringify(refused.body).includes('hunter2'), 'without echoing them');
  }
  t.equal((await w.api('PUT', `/api/repo-configs/${c._id}`, { repositoryUrl: 'ssh://git@git.example.com/acme/infra.git' })).status, 200, 'a user without a password (ssh deploy key) is fine');
  t.match((await w.api('POST', '/api/repo-configs', { repositoryName: 'acme/rel', branch: 'main', provider: 'cloud_a', repositoryUrl: 'infra' })).body,
    { error: { code: 'bad_request', message: /^repositoryUrl is neither a URL nor an absolute path/ } }, 'create checks repositoryUrl too, saying what to use');

  const bad = await w.api('POST', '/api/repo-configs', { repositoryName: 'no-slash', branch: 'main', provider: 'cloud_a' });
  t.equal(bad.status, 400, 'repositoryName must be owner/repo');
  const badProvider = await w.api('POST', '/api/repo-configs', { repositoryName: 'a/b', branch: 'main', provider: 'aws' });
  t.equal(badProvider.status, 400, 'provider must be cloud_a, cloud_b or cloud_c');

  const scanId = await w.scanWith(c._id, [{ resourceType: 'bucket', resourceAddress: 'bucket.a', severity: 'low' }, { resourceType: 'bucket', resourceAddress: 'bucket.b', severity: 'high' }]);
  const stats = await w.api('GET', `/api/repo-configs/${c._id}/stats`);
  t.match(stats.body.data, { totalScans: 1, totalDrifts: 2, resolvedDrifts: 0, openDrifts: 2, lastScanStatus: 'completed' }, 'stats from the records');
  t.ok(stats.body.data.lastScanAt, 'with lastScanAt');

  const del = await w.api('DELETE', `/api/repo-configs/${c._id}`);
  t.equal(del.status, 200, 'delete answers 200');
  t.equal((await w.api('GET', `/api/repo-configs/${c._id}`)).status, 404, 'the config is gone');
  t.equal((await w.api('GET', `/api/scans/${scanId}`)).status, 404, 'its scans are gone');
  t.equal(await w.ctx.db.db.collection('drifts').countDocuments({ orgId: w.owner.orgId, repositoryConfig: c._id }), 0, 'its drifts are gone');
});

t.test('plan limits: Free 1 repository config, Pro 5, Team unlimited; exact under concurrency', async (t) => {
  const w = await world(t, 'free');
  const body = (i: number | string) => ({ repositoryName: `acme/r${i}`, branch: 'main', provider: 'cloud_a' });
  const results = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => w.api('POST', '/api/repo-configs', body(i))));
  t.equal(results.filter((r) => r.status === 201).length, 1, 'six concurrent creates on Free: one succeeds');
  const refused = results.find((r) => r.status === 403)!;
  t.equal(refused.body.error.code, 'plan_limit', 'the others are refused with plan_limit');
  t.equal(refused.body.error.message, 'The Free plan allows 1 repository config; delete one or upgrade', 'the message names the limit');
  t.same(refused.body.error.details, { limit: 'repositories', plan: 'free', allowed: 1, used: 1 }, 'details: the limit, plan, allowed and used');

  // Upgrading lifts the limit at once.
  await w.ctx.tenancy.setPlan(w.owner.orgId, 'pro');
  const pro = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((i) => w.api('POST', '/api/repo-configs', body(`pro${i}`))));
  t.equal(pro.filter((r) => r.status === 201).length, 4, 'Pro: eight concurrent creates beside the one config make it five');
  const sixth = pro.find((r) => r.status === 403)!;
  t.equal(sixth.body.error.message, 'The Pro plan allows 5 repository configs; delete one or upgrade');
  t.same(sixth.body.error.details, { limit: 'repositories', plan: 'pro', allowed: 5, used: 5 });

  await w.ctx.tenancy.setPlan(w.owner.orgId, 'team');
  t.ok(await w.config('acme/team'), 'Team: no limit');
  const quota = await w.api('GET', '/api/auth/quota');
  t.equal(quota.body.usage.repositories, 6, 'the quota counts repositories');
  t.same(quota.body.items.find((i: { limit: string }) => i.limit === 'repositories'), { limit: 'repositories', allowed: null, used: 6, remaining: null });
  t.equal(await w.ctx.db.db.collection('repo_configs').countDocuments({ orgId: w.owner.orgId }), 6, 'never more were stored');
});

t.test('after a downgrade, configs over the limit stay readable, updatable, deletable and scannable; only adding is refused', async (t) => {
  const w = await world(t, 'team');
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push(await w.config(`acme/kept${i}`));
  await w.ctx.tenancy.setPlan(w.owner.orgId, 'free');
  t.equal((await w.api('GET', '/api/repo-configs')).body.data.length, 3, 'all three are listed: nothing is deleted');
  t.equal((await w.api('GET', `/api/repo-configs/${ids[2]}`)).status, 200, 'read');
  const upd = await w.api('PUT', `/api/repo-configs/${ids[2]}`, { branch: 'develop' });
  t.equal(upd.status, 200, 'updated');
  t.equal(upd.body.data.branch, 'develop');
  t.equal((await w.api('POST', `/api/scans/trigger/${ids[1]}`)).status, 201, 'scanned');
  const refused = await w.api('POST', '/api/repo-configs', { repositoryName: 'acme/new', branch: 'main', provider: 'cloud_a' });
  t.equal(refused.status, 403, 'a fourth is refused');
  t.same(refused.body.error.details, { limit: 'repositories', plan: 'free', allowed: 1, used: 3 }, 'with the usage over the limit');
  const quota = await w.api('GET', '/api/auth/quota');
  t.match(quota.body, { plan: 'free', limits: { repositories: 1 }, usage: { repositories: 3 }, remaining: { repositories: 0 } }, 'the quota shows the usage over the limit');
  t.equal((await w.api('DELETE', `/api/repo-configs/${ids[0]}`)).status, 200, 'deleted');
  t.equal((await w.api('DELETE', `/api/repo-configs/${ids[1]}`)).status, 200);
  t.equal((await w.api('POST', '/api/repo-configs', { repositoryName: 'acme/new', branch: 'main', provider: 'cloud_a' })).status, 403, 'still at the limit with one left');
  await w.api('DELETE', `/api/repo-configs/${ids[2]}`);
  t.equal((await w.api('POST', '/api/repo-configs', { repositoryName: 'acme/new', branch: 'main', provider: 'cloud_a' })).status, 201, 'under it, one can be added again');
});

t.test('a refused or failed create leaves nothing behind', async (t) => {
  const w = await world(t, 'free');
  const bad = await w.api('POST', '/api/repo-configs', { repositoryName: 'acme/bad', branch: 'main', provider: 'cloud_a', scheduleCron: 'not a cron' });
  t.equal(bad.status, 400, 'a create the service refuses');
  t.ok(await w.config('acme/good'), 'does not use up the limit');
});

t.test('CLI tokens limited to some repositories see and touch only those configs', async (t) => {
  const w = await world(t);
  const a = await w.config('acme/a');
  const b = await w.config('acme/b');
  const token = await w.cli(['repos:read', 'repos:write'], [a]);
  const list = await w.api('GET', '/api/repo-configs', undefined, token);
  t.same(list.body.data.map((c: { _id: string }) => c._id), [a], 'the list holds only its repository');
  t.equal((await w.api('GET', `/api/repo-configs/${a}`, undefined, token)).status, 200, 'its repository by id');
  const denied = await w.api('GET', `/api/repo-configs/${b}`, undefined, token);
  t.equal(denied.status, 403, 'another repository by id: 403');
  t.equal(denied.body.error.code, 'repository_denied');
  t.equal((await w.api('PUT', `/api/repo-configs/${b}`, { branch: 'x' }, token)).status, 403, 'cannot update it');
  t.equal((await w.api('DELETE', `/api/repo-configs/${b}`, undefined, token)).status, 403, 'cannot delete it');
  t.equal((await w.api('POST', '/api/repo-configs', { repositoryName: 'acme/c', branch: 'main', provider: 'cloud_a' }, token)).status, 403, 'cannot add a repository');
  const all = await w.cli(['repos:read'], undefined);
  t.equal((await w.api('GET', '/api/repo-configs', undefined, all)).body.data.length, 2, 'an allRepositories token sees both');
});
