// SCIM list pages on the embedded FerretDB: the page's ids and the count come from its PostgreSQL
// (core/ferret-reads.ts, plugins/sso-scim/scim-pages.ts), and the answers are the driver's own,
// page for page, with another organization's users left out (issue 36, point 5).
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { buildTestApp, register, bearer, serviceUrls, commandLog } from '../../helper.ts';

const { postgresUrl } = serviceUrls();
// Without FerretDB's PostgreSQL there is no pushdown to compare: skipped, said so, never passed.
t.test('SCIM lists: PostgreSQL pages answer as the driver does, without counting through FerretDB', { skip: postgresUrl ? false : 'no FerretDB PostgreSQL URL (FERRETDB_POSTGRES_URL or services.json): nothing is pushed down' }, async (t) => {
  const { app, ctx } = await buildTestApp(t, { env: { FERRETDB_POSTGRES_URL: postgresUrl! } });
  const owner = await register(app);
  const other = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  const token: string = (await app.inject({ method: 'POST', url: '/api/scim/tokens', headers: { ...bearer(owner.token), 'x-org-id': owner.orgId }, payload: {} })).json().token;
  const now = new Date();
  const user = (orgId: string, i: number) => {
    const userName = `user${i}@corp.example`;
    // Random ids, some upper-case-free digits first and some letters: the order is MongoDB's binary order.
    const _id = randomBytes(12).toString('hex');
    return {
      _id, orgId, userId: `unlinked:${_id}`, userName, userNameLower: userName, active: i % 10 !== 0, externalId: `ext-${i}`,
      displayName: `User ${i}`, name: { givenName: `Given${i}`, familyName: i % 2 ? 'Smith' : 'Jones' },
      emails: [{ value: userName, type: 'work', primary: true }], createdAt: now, updatedAt: now, version: 1,
    };
  };
  const users = ctx.db.db.collection('scim_users');
  await users.insertMany([...Array.from({ length: 230 }, (_, i) => user(owner.orgId, i)), ...Array.from({ length: 40 }, (_, i) => user(other.orgId, i))] as never[]);
  // A record whose orgId is an array holding the organization: MongoDB's equality would match it, as must the pushdown.
  await users.insertOne({ ...user(owner.orgId, 999), orgId: [owner.orgId] } as never);

  const pushdown = ctx.db.pushdown;
  // With the URL the reads must be pushed: a null answer here is a failure, not a pass.
  const probe = pushdown ? await pushdown.page('scim_users', { orgId: owner.orgId }, { _id: 1 }, 0, 1) : null;
  if (!t.ok(probe, 'FerretDB\'s PostgreSQL answers a page') || !pushdown) return;
  const commands = commandLog(t, ctx.db.client);
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url: `/api/scim/v2${url}`, headers: bearer(token) });
    t.equal(res.statusCode, 200, url);
    return res.json();
  };
  const urls = [
    '/Users', '/Users?startIndex=1&count=100', '/Users?startIndex=101&count=100', '/Users?startIndex=201&count=100',
    '/Users?startIndex=229&count=5', '/Users?startIndex=500&count=10', '/Users?count=0', '/Users?startIndex=7&count=3&attributes=userName',
    `/Users?filter=${encodeURIComponent('userName eq "user17@corp.example"')}`, `/Users?filter=${encodeURIComponent('externalId eq "ext-18"')}&startIndex=1&count=5`,
    `/Users?filter=${encodeURIComponent('name.familyName eq "Smith"')}&startIndex=11&count=20`,
    // Case-insensitive matches on sub-attributes and multi-valued ones, and/or/not (issue 36, point 5).
    `/Users?filter=${encodeURIComponent('name.familyName eq "SMITH"')}&startIndex=3&count=7`,
    `/Users?filter=${encodeURIComponent('name.familyName sw "jo"')}&count=10`,
    `/Users?filter=${encodeURIComponent('name.givenName co "VEN1"')}&startIndex=5&count=10`,
    `/Users?filter=${encodeURIComponent('name.givenName ew "7"')}`,
    `/Users?filter=${encodeURIComponent('emails.value eq "USER42@corp.example"')}`,
    `/Users?filter=${encodeURIComponent('emails.value co "ser1"')}&count=15`,
    `/Users?filter=${encodeURIComponent('userName sw "user2"')}&count=15`,
    `/Users?filter=${encodeURIComponent('active eq false')}&count=50`,
    `/Users?filter=${encodeURIComponent('active ne false and name.familyName eq "jones"')}&startIndex=40&count=30`,
    `/Users?filter=${encodeURIComponent('name.familyName eq "Smith" or userName eq "user2@corp.example"')}&count=10`,
    `/Users?filter=${encodeURIComponent('not (name.familyName eq "Smith")')}&count=10`,
    `/Users?filter=${encodeURIComponent('displayName pr')}&count=10`,
    `/Users?filter=${encodeURIComponent('name.familyName eq "Smi.h"')}`,
    // A value that would close the SQL/JSON path's string and widen the test: it stays a literal (0 users).
    `/Users?filter=${encodeURIComponent('name.familyName co "\\") || exists($.orgId ? (@ like_regex \\"."')}`,
    '/Groups?startIndex=1&count=10',
  ];
  for (const url of urls) {
    commands.clear();
    const sent = pushdown.statements();
    const fast = await get(url);
    t.ok(pushdown.statements() > sent, `${url}: asked of PostgreSQL`);
    const counted = commands.names.filter((n) => n === 'aggregate scim_users' || n === 'count scim_users').length;
    const viaDriver = await (async () => {
      (ctx.db as { pushdown: typeof pushdown | null }).pushdown = null;
      try { return await get(url); } finally { (ctx.db as { pushdown: typeof pushdown | null }).pushdown = pushdown; }
    })();
    t.same(fast, viaDriver, `${url}: the same answer as the driver's`);
    t.equal(counted, 0, `${url}: no count through FerretDB`);
  }
  const [first, second] = [await get('/Users?count=200'), await get('/Users?startIndex=201&count=200')];
  t.equal(first.totalResults, 231, "the organization's 231 users (one with orgId as an array), none of the other's");
  const ids = [...first.Resources, ...second.Resources].map((r: { id: string }) => r.id);
  t.equal(new Set(ids).size, 231, 'two pages hold every user once');
  t.same(ids, [...ids].sort(), 'in id order');
});
