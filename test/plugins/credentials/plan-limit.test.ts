// Cloud accounts (SPEC "Limits": Free 0, Pro 1, Team and Enterprise unlimited): an
// organization's saved provider credentials and its projects' credentials, counted together
// by the engine (manifest limit: 'cloudAccounts'; plugins credentials and projects meter them).
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';

const A = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY', region: 'eu-west-1' };
const B = { subscriptionId: 'sub-0000-1111-2222', tenantId: 'tenant-0000-1111-2222', clientId: 'client-0000-1111-2222', clientSecret: 'b-secret' };

t.test('cloud accounts: Free none, Pro one, Team unlimited; replacing is not adding; exact under concurrency', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  const save = (letter: 'a' | 'b', body: object) => app.inject({ method: 'POST', url: `/api/auth/cloud-${letter}-credentials`, headers: h, payload: body });

  const free = await save('a', A);
  t.equal(free.statusCode, 403, 'Free: no cloud account');
  t.equal(free.json().error.code, 'plan_limit');
  t.equal(free.json().error.message, 'The Free plan allows 0 cloud accounts; upgrade to add one');
  t.same(free.json().error.details, { limit: 'cloudAccounts', plan: 'free', allowed: 0, used: 0 });
  const project = (await app.inject({ method: 'POST', url: '/api/projects', headers: h, payload: { name: 'P', provider: 'cloud_a' } })).json().data._id;
  const projectCreds = () => app.inject({ method: 'PUT', url: `/api/projects/${project}/credentials`, headers: h, payload: A });
  t.equal((await projectCreds()).statusCode, 403, "Free: a project's credentials are a cloud account too");

  await ctx.tenancy.setPlan(s.orgId, 'pro');
  const raced = await Promise.all([save('a', A), save('b', B), projectCreds(), save('a', A), save('b', B)]);
  const added = raced.filter((r) => r.statusCode === 200);
  t.ok(added.length >= 1, `Pro: concurrent saves of different accounts (${added.length} answered 200)`);
  const quota = async () => (await app.inject({ method: 'GET', url: '/api/auth/quota', headers: h })).json();
  t.equal((await quota()).usage.cloudAccounts, 1, 'exactly one cloud account is stored');
  const refused = raced.find((r) => r.statusCode === 403)!;
  t.equal(refused.json().error.message, 'The Pro plan allows 1 cloud account; delete one or upgrade');
  t.same(refused.json().error.details, { limit: 'cloudAccounts', plan: 'pro', allowed: 1, used: 1 });

  await ctx.tenancy.setPlan(s.orgId, 'team');
  t.equal((await save('a', A)).statusCode, 200, 'Team: unlimited');
  t.equal((await save('b', B)).statusCode, 200);
  t.equal((await projectCreds()).statusCode, 200);
  t.same((await quota()).items.find((i: { limit: string }) => i.limit === 'cloudAccounts'), { limit: 'cloudAccounts', allowed: null, used: 3, remaining: null });

  // Downgraded: nothing is deleted; every account stays readable and can be saved again (replaced).
  await ctx.tenancy.setPlan(s.orgId, 'pro');
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/cloud-b-credentials/full', headers: h })).json().clientSecret, B.clientSecret, 'read in full');
  t.equal((await save('b', { ...B, clientSecret: 'rotated' })).statusCode, 200, 'replaced over the limit');
  t.equal((await projectCreds()).statusCode, 200, "a project's credentials replaced over the limit");
  t.match(await quota(), { usage: { cloudAccounts: 3 }, remaining: { cloudAccounts: 0 } }, 'the quota shows the usage over the limit');
  t.equal((await app.inject({ method: 'DELETE', url: '/api/auth/cloud-a-credentials', headers: h })).statusCode, 200, 'deleted');
  const again = await save('a', A);
  t.equal(again.statusCode, 403, 'adding one back is refused while over the limit');
  t.same(again.json().error.details, { limit: 'cloudAccounts', plan: 'pro', allowed: 1, used: 2 });
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials', headers: h })).json().hasCredentials, false, 'and stores nothing');
});
