// SCIM 2.0 as Okta and Microsoft Entra ID drive it: discovery, users with filters, paging and
// the PATCH forms each sends, groups and their role mappings, Bulk, and the errors' schema.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { startDns } from './dns.ts';
import { verifyDomain } from './verified.ts';

const SCIM = 'application/scim+json';
const ENT = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

t.test('SCIM protocol', async (t) => {
  const dns = await startDns(t);
  const { app, ctx, services } = await buildTestApp(t, { env: { DNS_SERVERS: dns.server } });
  const owner = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  const admin = { ...bearer(owner.token), 'x-org-id': owner.orgId };
  // The organization owns corp.test, so SCIM creates and joins accounts under it.
  await verifyDomain(t, app, dns, admin, 'corp.test');
  const created = await app.inject({ method: 'POST', url: '/api/scim/tokens', headers: admin, payload: {} });
  t.equal(created.statusCode, 201, created.body);
  t.equal(created.json().label, 'SCIM Token');
  const token: string = created.json().token;
  const list = (await app.inject({ method: 'GET', url: '/api/scim/tokens', headers: admin })).json();
  t.equal(list.tokens[0].prefix, token.slice(0, 12));
  t.notOk('token' in list.tokens[0], 'listed with the prefix only');

  const call = (method: string, url: string, payload?: unknown, type = SCIM) => app.inject({
    method: method as 'GET', url: `/api/scim/v2${url}`, headers: { ...bearer(token), ...(payload !== undefined ? { 'content-type': type } : {}) },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });

  // Credentials: only SCIM tokens here, SCIM tokens nowhere else.
  const jwt = await app.inject({ method: 'GET', url: '/api/scim/v2/Users', headers: bearer(owner.token) });
  t.equal(jwt.statusCode, 401, 'a JWT on SCIM: 401');
  t.same(jwt.json().schemas, ['urn:ietf:params:scim:api:messages:2.0:Error']);
  t.equal(jwt.json().status, '401');
  t.match(jwt.headers['content-type'], /application\/scim\+json/);
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).statusCode, 401, 'a SCIM token elsewhere: 401');
  t.equal((await app.inject({ method: 'GET', url: '/api/sso/config', headers: { ...bearer(token), 'x-org-id': owner.orgId } })).statusCode, 401);

  // Discovery
  const spc = (await call('GET', '/ServiceProviderConfig')).json();
  t.match(spc, { patch: { supported: true }, bulk: { supported: true, maxOperations: 100 }, filter: { supported: true, maxResults: 200 }, sort: { supported: false }, etag: { supported: false }, changePassword: { supported: false } });
  const schemas = (await call('GET', '/Schemas')).json();
  t.same(schemas.Resources.map((s: { id: string }) => s.id).sort(), ['urn:ietf:params:scim:schemas:core:2.0:Group', 'urn:ietf:params:scim:schemas:core:2.0:User', ENT].sort());
  t.equal((await call('GET', '/ResourceTypes')).json().totalResults, 2);
  t.equal((await call('GET', '/ResourceTypes/User')).json().endpoint, '/Users');
  t.equal((await call('GET', `/Schemas/${ENT}`)).json().name, 'EnterpriseUser');
  const unknown = await call('GET', '/Nope/x');
  t.equal(unknown.statusCode, 404, 'an unknown path under /api/scim/v2: 404');
  t.match(unknown.headers['content-type'], /application\/scim\+json/);
  t.same(unknown.json(), { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404', detail: 'Route GET /api/scim/v2/Nope/x not found' }, 'in the SCIM error shape');
  const wrongMethod = await call('DELETE', '/ServiceProviderConfig');
  t.equal(wrongMethod.statusCode, 405, 'a known path with another method: 405');
  t.equal(wrongMethod.headers.allow, 'GET');
  t.equal(wrongMethod.json().status, '405');
  t.equal((await app.inject({ method: 'GET', url: '/api/nope' })).json().error.code, 'not_found', 'elsewhere the JSON 404 stays');
  // The router refuses a parameter over 100 characters before any route runs: still the SCIM shape here.
  const tooLong = await call('GET', `/Schemas/${'x'.repeat(101)}`);
  t.equal(tooLong.statusCode, 414, 'a parameter longer than the router takes: 414');
  t.match(tooLong.headers['content-type'], /application\/scim\+json/, 'in the SCIM content type');
  t.equal(tooLong.json().status, '414', 'and the SCIM error shape');
  t.equal((await app.inject({ method: 'DELETE', url: `/api/sso/domains/${'x'.repeat(260)}` })).json().error.code, 'uri_too_long', 'elsewhere the JSON 414 stays');

  // Okta: looks the user up first, then creates.
  const lookup = await call('GET', `/Users?filter=${encodeURIComponent('userName eq "ada@corp.test"')}&startIndex=1&count=100`);
  t.equal(lookup.statusCode, 200);
  t.match(lookup.headers['content-type'], /application\/scim\+json/);
  t.match(lookup.json(), { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, startIndex: 1, itemsPerPage: 0 });
  const ada = await call('POST', '/Users', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', ENT], userName: 'ada@corp.test', name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ primary: true, value: 'ada@corp.test', type: 'work' }], displayName: 'Ada Lovelace', locale: 'en-US', externalId: '00u1', groups: [], password: 'ignored', active: true,
    [ENT]: { department: 'Engineering', employeeNumber: '42', manager: { value: 'boss' } },
  });
  t.equal(ada.statusCode, 201, ada.body);
  const adaId = ada.json().id;
  t.match(ada.json(), { userName: 'ada@corp.test', active: true, meta: { resourceType: 'User' }, [ENT]: { department: 'Engineering' } });
  t.notOk(ada.body.includes('ignored'), 'attributes not kept are dropped');
  const dup = await call('POST', '/Users', { userName: 'ADA@corp.test' });
  t.equal(dup.statusCode, 409);
  t.match(dup.json(), { status: '409', scimType: 'uniqueness' });
  const missing = await call('POST', '/Users', { displayName: 'x' });
  t.equal(missing.statusCode, 400);
  t.equal(missing.json().scimType, 'invalidValue');
  const plainJson = await call('POST', '/Users', { userName: 'grace@corp.test', name: { givenName: 'Grace', familyName: 'Hopper' }, emails: [{ value: 'grace@corp.test', type: 'work', primary: true }] }, 'application/json');
  t.equal(plainJson.statusCode, 201, 'application/json requests are accepted too');
  const graceId = plainJson.json().id;
  const adaAccount = await services.auth!.userDirectory.byEmail('ada@corp.test');
  t.ok(adaAccount, 'an account was created');
  t.equal((await ctx.tenancy.access(owner.orgId, adaAccount!._id))?.role, 'member', 'joined with the default role');

  // Filters
  const q = async (filter: string) => {
    const res = await call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
    t.equal(res.statusCode, 200, `${filter}: ${res.statusCode === 200 ? '' : res.body}`);
    return (res.json().Resources ?? []).map((r: { userName: string }) => r.userName).sort();
  };
  t.same(await q('userName eq "ADA@CORP.TEST"'), ['ada@corp.test'], 'userName is case-insensitive');
  t.same(await q('name.givenName sw "gr"'), ['grace@corp.test']);
  t.same(await q('emails[type eq "work" and value co "ada"]'), ['ada@corp.test']);
  t.same(await q(`${ENT}:department eq "engineering"`), ['ada@corp.test']);
  t.same(await q('externalId eq "00u1" or userName eq "grace@corp.test"'), ['ada@corp.test', 'grace@corp.test']);
  t.same(await q('not (userName eq "ada@corp.test") and active eq true'), ['grace@corp.test']);
  t.same(await q('(title pr) or (displayName co "lovelace")'), ['ada@corp.test']);
  t.same(await q('meta.lastModified gt "2000-01-01T00:00:00Z"'), ['ada@corp.test', 'grace@corp.test']);
  t.same(await q('displayName gt "A"'), ['ada@corp.test'], 'evaluated in memory where the database cannot');
  for (const bad of ['userName eq', 'userName zz "a"', '(userName eq "a"', 'nope eq "a"', 'userName eq "a" and']) {
    const res = await call('GET', `/Users?filter=${encodeURIComponent(bad)}`);
    t.equal(res.statusCode, 400, `invalid filter ${bad}`);
    t.equal(res.json().scimType, 'invalidFilter');
  }

  // Paging
  for (let i = 0; i < 5; i++) await call('POST', '/Users', { userName: `p${i}@corp.test` });
  const p2 = (await call('GET', '/Users?startIndex=3&count=2')).json();
  t.match(p2, { totalResults: 7, itemsPerPage: 2, startIndex: 3 });
  t.equal((await call('GET', '/Users?count=500')).json().itemsPerPage, 7, 'count above 200 is capped');
  t.equal((await call('GET', '/Users?count=0')).json().itemsPerPage, 0, 'count 0: totals only');

  // Entra ID's PATCH forms
  const entra = await call('PATCH', `/Users/${adaId}`, { schemas: [PATCH], Operations: [
    { op: 'Replace', path: 'displayName', value: 'Ada King' },
    { op: 'Add', path: 'emails[type eq "home"].value', value: 'ada@home.test' },
    { op: 'Replace', value: { 'name.familyName': 'King', [`${ENT}:department`]: 'Research' } },
    { op: 'Remove', path: `${ENT}:manager` },
  ] });
  t.equal(entra.statusCode, 200, entra.body);
  t.match(entra.json(), { displayName: 'Ada King', name: { familyName: 'King', givenName: 'Ada' }, [ENT]: { department: 'Research' } });
  t.notOk(entra.json()[ENT].manager, 'manager removed');
  t.equal(entra.json().emails.length, 2, 'an email of a new type added through a filter path');
  const off = await call('PATCH', `/Users/${adaId}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
  t.equal(off.json().active, false, 'Entra\'s "False" string deactivates');
  t.equal(await ctx.tenancy.access(owner.orgId, adaAccount!._id), null, 'a deactivated member has no access to the organization');
  const on = await call('PATCH', `/Users/${adaId}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: true } }] });
  t.equal(on.json().active, true, "Okta's replace without a path reactivates");
  t.ok(await ctx.tenancy.access(owner.orgId, adaAccount!._id), 'access again');
  const noTarget = await call('PATCH', `/Users/${adaId}`, { schemas: [PATCH], Operations: [{ op: 'remove' }] });
  t.equal(noTarget.json().scimType, 'noTarget');

  // PUT full replace
  const put = await call('PUT', `/Users/${graceId}`, { userName: 'grace@corp.test', displayName: 'Rear Admiral Hopper', active: true });
  t.equal(put.statusCode, 200);
  t.notOk(put.json().name, 'attributes left out of a PUT are cleared');

  // Groups, mappings and roles
  const grp = await call('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Admins', members: [{ value: adaId }] });
  t.equal(grp.statusCode, 201, grp.body);
  const gid = grp.json().id;
  t.equal((await call('POST', '/Groups', { displayName: 'admins' })).json().scimType, 'uniqueness');
  const map = await app.inject({ method: 'PATCH', url: `/api/scim/groups/${gid}/mapping`, headers: admin, payload: { mappedRole: 'admin' } });
  t.equal(map.statusCode, 200, map.body);
  t.match(map.json(), { displayName: 'Admins', memberCount: 1, mappedRole: 'admin', mappedCustomRoleId: null });
  t.equal((await ctx.tenancy.access(owner.orgId, adaAccount!._id))?.role, 'admin', 'mapping a group makes its members admins');
  const graceAccount = await services.auth!.userDirectory.byEmail('grace@corp.test');
  const add = await call('PATCH', `/Groups/${gid}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: graceId, display: 'grace' }] }] });
  t.equal(add.statusCode, 204, `a group PATCH answers 204 No Content ${add.body}`);
  const withGrace = (await call('GET', `/Groups/${gid}`)).json();
  t.same(withGrace.members.find((m: { value: string }) => m.value === graceId), { value: graceId, $ref: `http://localhost:3000/api/scim/v2/Users/${graceId}`, type: 'User', display: 'grace' }, "a member's display is kept as sent");
  const graceUser = (await call('GET', `/Users/${graceId}`)).json();
  t.same(graceUser.groups, [{ value: gid, $ref: `http://localhost:3000/api/scim/v2/Groups/${gid}`, display: 'Admins', type: 'direct' }], "a user's groups are returned");
  t.equal((await call('GET', `/Users?filter=${encodeURIComponent(`groups.value eq "${gid}"`)}`)).json().totalResults, 2, 'users filter by group');
  const only = (await call('GET', `/Users/${graceId}?attributes=userName,name.givenName`)).json();
  t.same(Object.keys(only).sort(), ['id', 'schemas', 'userName'].sort(), 'attributes: only those (grace has no name since the PUT)');
  const without = (await call('GET', `/Users/${adaId}?excludedAttributes=emails,${ENT}:department`)).json();
  t.notOk(without.emails, 'excludedAttributes drops emails');
  t.notOk(without[ENT].department, 'and an extension attribute by its URN');
  t.equal((await ctx.tenancy.access(owner.orgId, graceAccount!._id))?.role, 'admin', 'a member added to a mapped group is recomputed');
  await call('PATCH', `/Groups/${gid}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${graceId}"]` }] });
  t.equal((await call('GET', `/Groups/${gid}`)).json().members.length, 1, "Okta's removal by value filter");
  t.equal((await ctx.tenancy.access(owner.orgId, graceAccount!._id))?.role, 'member', 'back to the default role');
  await call('PATCH', `/Groups/${gid}`, { schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members', value: [{ value: adaId }] }] });
  t.equal((await call('GET', `/Groups/${gid}`)).json().members.length, 0, "Entra's removal with a value list");
  await call('PATCH', `/Groups/${gid}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { id: gid, displayName: 'Platform Admins' } }] });
  t.equal((await call('GET', `/Groups/${gid}`)).json().displayName, 'Platform Admins', "Okta's group replace without a path");
  const groups = (await app.inject({ method: 'GET', url: '/api/scim/groups', headers: admin })).json().groups;
  t.match(groups, [{ id: gid, memberCount: 0, mappedRole: 'admin' }]);
  t.equal((await call('GET', `/Groups?filter=${encodeURIComponent('displayName eq "platform admins"')}&excludedAttributes=members`)).json().Resources[0].members, undefined);
  await ctx.audit.flush();
  const changes = await ctx.audit.query({ orgId: owner.orgId, action: 'member.role_changed' }, { page: 1, limit: 10 });
  t.ok(changes.total >= 3, 'role changes audited');

  // The owner is never changed by SCIM.
  const ownerScim = await call('POST', '/Users', { userName: owner.email });
  t.equal(ownerScim.statusCode, 201);
  await call('PATCH', `/Groups/${gid}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: ownerScim.json().id }] }] });
  await app.inject({ method: 'PATCH', url: `/api/scim/groups/${gid}/mapping`, headers: admin, payload: { mappedRole: 'viewer' } });
  t.equal((await ctx.tenancy.access(owner.orgId, owner.userId))?.role, 'owner', 'the owner keeps the owner role');
  await call('DELETE', `/Users/${ownerScim.json().id}`);
  t.ok(await ctx.tenancy.access(owner.orgId, owner.userId), 'nor is removed');

  // DELETE removes the member; the account stays.
  t.equal((await call('DELETE', `/Users/${graceId}`)).statusCode, 204);
  t.equal(await ctx.tenancy.access(owner.orgId, graceAccount!._id), null);
  t.ok(await services.auth!.userDirectory.byEmail('grace@corp.test'), 'the account stays');
  t.equal((await call('GET', `/Users/${graceId}`)).statusCode, 404);

  // Bulk
  const bulk = await call('POST', '/Bulk', { schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], failOnErrors: 5, Operations: [
    { method: 'POST', path: '/Groups', bulkId: 'g1', data: { displayName: 'Bulk group', members: [{ value: 'bulkId:u1' }] } },
    { method: 'POST', path: '/Users', bulkId: 'u1', data: { userName: 'bulk1@corp.test' } },
    { method: 'PATCH', path: '/Users/bulkId:u1', data: { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Bulk One' }] } },
    { method: 'POST', path: '/Users', data: { userName: 'ada@corp.test' } },
  ] });
  t.equal(bulk.statusCode, 200, bulk.body);
  const ops = bulk.json().Operations;
  t.same(ops.map((o: { status: string }) => o.status), ['201', '201', '200', '409'], 'a group referencing a later user waits for it');
  t.equal(ops[3].response.scimType, 'uniqueness');
  const bulkGroup = (await call('GET', `/Groups/${ops[0].location.split('/').pop()}`)).json();
  t.equal(bulkGroup.members[0].value, ops[1].location.split('/').pop(), 'bulkId resolved');
  const stop = await call('POST', '/Bulk', { failOnErrors: 1, Operations: [
    { method: 'POST', path: '/Users', data: { userName: 'ada@corp.test' } },
    { method: 'POST', path: '/Users', data: { userName: 'never@corp.test' } },
  ] });
  t.equal(stop.json().Operations.length, 1, 'failOnErrors stops the run');
  const tooMany = await call('POST', '/Bulk', { Operations: Array.from({ length: 101 }, (_, i) => ({ method: 'POST', path: '/Users', data: { userName: `m${i}@corp.test` } })) });
  t.equal(tooMany.statusCode, 413);
  t.equal(tooMany.json().status, '413');

  // Revocation reaches every process at once (the cache is invalidated over Redis).
  await app.inject({ method: 'DELETE', url: `/api/scim/tokens/${created.json().id}`, headers: admin });
  t.equal((await call('GET', '/Users')).statusCode, 401, 'a revoked token: 401');
});
