// Organizations: list, create, read, and deletion, which must leave no record of the
// organization in any collection of any plugin.
import t from 'tap';
import { MongoClient } from 'mongodb';
import { newId } from '../../../core/crypto.ts';
import { buildTestApp, register, bearer, serviceUrls } from '../../helper.ts';
import { addMember } from './helper.ts';

t.test('create, list, read', async (t) => {
  const { app } = await buildTestApp(t);
  const s = await register(app);
  const created = await app.inject({ method: 'POST', url: '/api/orgs', headers: bearer(s.token), payload: { name: 'Platform' } });
  t.equal(created.statusCode, 201);
  const org = created.json();
  t.match(org, { name: 'Platform', role: 'owner', plan: 'free', memberCount: 1 }, 'the caller is owner; plan free');
  t.same(Object.keys(org).sort(), ['_id', 'createdAt', 'memberCount', 'name', 'plan', 'role']);
  const list = await app.inject({ method: 'GET', url: '/api/orgs', headers: bearer(s.token) });
  t.same(list.json().organizations.map((o: { _id: string }) => o._id), [s.orgId, org._id], 'both organizations, oldest membership first');
  const read = await app.inject({ method: 'GET', url: `/api/orgs/${org._id}`, headers: bearer(s.token) });
  t.same(read.json(), org, 'read answers the same view');
  const stranger = await register(app);
  t.equal((await app.inject({ method: 'GET', url: `/api/orgs/${org._id}`, headers: bearer(stranger.token) })).statusCode, 404, "someone else's organization: 404");
});

t.test('deleting an organization leaves none of its records in any collection', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const h = bearer(owner.token);
  const orgId = (await app.inject({ method: 'POST', url: '/api/orgs', headers: h, payload: { name: 'Doomed' } })).json()._id as string;
  await ctx.tenancy.setPlan(orgId, 'enterprise');
  const inOrg = { ...h, 'x-org-id': orgId };

  // Data through the API: members, a custom role, invitations (one accepted: an exactly-once
  // key), credentials of another plugin, and the audit entries all of this writes.
  const member = await addMember(b, orgId, 'member');
  const role = (await app.inject({ method: 'POST', url: `/api/orgs/${orgId}/roles`, headers: h, payload: { name: 'Ops', permissions: ['org:read'] } })).json()._id;
  await app.inject({ method: 'PUT', url: `/api/orgs/${orgId}/members/${member.userId}`, headers: h, payload: { role } });
  await app.inject({ method: 'POST', url: `/api/orgs/${orgId}/invitations/email`, headers: h, payload: { email: 'someone@example.com' } });
  const link = (await app.inject({ method: 'POST', url: `/api/orgs/${orgId}/invitations/link`, headers: h, payload: {} })).json().link as string;
  const joiner = await register(app);
  const joined = await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(joiner.token), payload: { token: new URL(link).searchParams.get('token') } });
  t.equal(joined.statusCode, 200, 'set-up: someone joined through a link');
  const creds = await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: inOrg, payload: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'secret-value-123', region: 'eu-west-1' } });
  t.equal(creds.statusCode, 200, "set-up: another plugin's data");
  await ctx.audit.flush();

  // And one record in every collection that is scoped by organization (an orgId index), so
  // a plugin whose deletion hook forgets a collection fails here by name.
  const raw = new MongoClient(serviceUrls().mongoUri);
  await raw.connect();
  t.teardown(() => raw.close());
  const db = raw.db(ctx.config.MONGODB_DB);
  const scoped = ctx.db.specs().filter((s) => s.indexes.some((i) => 'orgId' in i.key));
  for (const spec of scoped) await db.collection(spec.name).insertOne({ _id: newId() as never, orgId, seededByTest: true });
  const counts = async () => Object.fromEntries(await Promise.all(ctx.db.specs().map(async (s) => [s.name, await db.collection(s.name).countDocuments({ orgId })] as const)));
  const before = await counts();
  t.ok(before.memberships >= 3 && before.roles >= 1 && before.invitations >= 2 && before.audit_logs > 3 && before.once_keys >= 1 && before.cloud_credentials >= 1, 'set-up: records everywhere');

  const hooked: string[] = [];
  ctx.onOrgDelete(async (id) => { hooked.push(id); });
  t.equal((await app.inject({ method: 'DELETE', url: `/api/orgs/${orgId}`, headers: bearer(member.token) })).statusCode, 403, 'a member cannot delete');
  const res = await app.inject({ method: 'DELETE', url: `/api/orgs/${orgId}`, headers: h });
  t.equal(res.statusCode, 204, 'the owner deletes: 204');
  t.equal(res.body, '', 'no body');
  t.same(hooked, [orgId], "every plugin's deletion hook ran, with the organization id");
  await ctx.audit.flush();

  const after = await counts();
  for (const [name, n] of Object.entries(after)) t.equal(n, 0, `${name}: no record with the organization's id`);
  t.equal(await db.collection('organizations').countDocuments({ _id: orgId as never }), 0, 'the organization itself is gone');

  const deletion = await db.collection('audit_logs').findOne({ action: 'org.deleted', 'details.orgId': orgId });
  t.match(deletion, { orgId: null, userId: owner.userId, statusCode: 204, details: { target: { type: 'organization', id: orgId, name: 'Doomed' } } },
    'the deletion itself is recorded in the platform trail, not under the deleted organization');

  for (const s of [owner, member, joiner]) {
    const gone = await app.inject({ method: 'GET', url: `/api/orgs/${orgId}`, headers: bearer(s.token) });
    t.equal(gone.statusCode, 404, 'members see 404 at once (caches invalidated)');
  }
  t.equal((await app.inject({ method: 'GET', url: `/api/orgs/${owner.orgId}`, headers: h })).statusCode, 200, "the owner's other organization is untouched");
  t.ok(await db.collection('audit_logs').countDocuments({ orgId: owner.orgId }), 'and keeps its audit entries');
});
