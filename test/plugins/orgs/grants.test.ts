// Nobody grants more than they hold (core/tenancy/grants.ts): every route that can change a
// role, walked as a caller holding integrations:write only, and as an admin reaching for the
// owner's powers. Each answer is refused and nothing changes (memberships, roles, invitations,
// the SSO default role, the SCIM mappings).
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { addMember, addRole } from './helper.ts';
import { startDns } from '../sso-scim/dns.ts';
import { verifyDomain } from '../sso-scim/verified.ts';
import { generateKeyPair } from '../sso-scim/idp.ts';

const SCIM = 'application/scim+json';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

t.test('every path that changes a role goes through the one rule', async (t) => {
  const dns = await startDns(t);
  const b = await buildTestApp(t, { env: { DNS_SERVERS: dns.server } });
  const { app, ctx } = b;
  const owner = await register(app);
  const orgId = owner.orgId;
  await ctx.tenancy.setPlan(orgId, 'enterprise');
  const ownerHeaders = { ...bearer(owner.token), 'x-org-id': orgId };
  const domain = `grants-${process.pid}.test`;
  await verifyDomain(t, app, dns, ownerHeaders, domain);
  const cert = generateKeyPair().cert;
  const sso = (defaultRole: string, headers: Record<string, string>) => app.inject({ method: 'PUT', url: '/api/sso/config', headers, payload: {
    saml: { entryPoint: 'https://idp.example.test/sso', issuer: 'https://sp.example.test', cert }, defaultRole,
  } });
  t.equal((await sso('viewer', ownerHeaders)).statusCode, 200, 'the owner sets defaultRole viewer');

  const integratorRole = await addRole(b, orgId, 'Integrator', ['integrations:read', 'integrations:write']);
  const integrator = await addMember(b, orgId, integratorRole);
  const admin = await addMember(b, orgId, 'admin');
  const member = await addMember(b, orgId, 'member');
  const readers = await addRole(b, orgId, 'Readers', ['org:read']);
  const reader = await addMember(b, orgId, readers);
  const other = await register(app);
  await addMember(b, other.orgId, 'admin').then(() => undefined);

  // SCIM as the owner sets it up: users for the admin and the member, an admin-mapped group.
  const ownerToken = (await app.inject({ method: 'POST', url: '/api/scim/tokens', headers: ownerHeaders, payload: {} })).json().token as string;
  const scimAs = (token: string) => (method: string, url: string, payload?: unknown) => app.inject({
    method: method as 'POST', url: `/api/scim/v2${url}`, headers: { ...bearer(token), 'content-type': SCIM }, ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  const ownerScim = scimAs(ownerToken);
  const adminScim = (await ownerScim('POST', '/Users', { userName: admin.email })).json().id as string;
  const memberScim = (await ownerScim('POST', '/Users', { userName: member.email })).json().id as string;
  const adminsGroup = (await ownerScim('POST', '/Groups', { displayName: 'Admins', members: [{ value: adminScim }] })).json().id as string;
  const everyone = (await ownerScim('POST', '/Groups', { displayName: 'Everyone', members: [{ value: adminScim }, { value: memberScim }] })).json().id as string;
  t.equal((await app.inject({ method: 'PATCH', url: `/api/scim/groups/${adminsGroup}/mapping`, headers: ownerHeaders, payload: { mappedRole: 'admin' } })).statusCode, 200);

  const snapshot = async () => JSON.stringify({
    members: (await ctx.tenancy.listMembers(orgId, { page: 1, limit: 100 })).map((m) => [m.userId, m.role, Boolean(m.deactivated)]).sort(),
    roles: (await ctx.tenancy.listRoles(orgId)).map((r) => [r._id, r.name, [...r.permissions].sort()]),
    defaultRole: (await app.inject({ method: 'GET', url: '/api/sso/config', headers: ownerHeaders })).json().config.defaultRole,
    mappings: (await app.inject({ method: 'GET', url: '/api/scim/groups', headers: ownerHeaders })).json().groups,
    groups: (await ownerScim('GET', '/Groups')).json().Resources.map((g: { id: string; members: unknown[] }) => [g.id, g.members.length]),
    invitations: (await app.inject({ method: 'GET', url: `/api/orgs/${orgId}/invitations`, headers: bearer(owner.token) })).json().total,
    otherOrg: (await ctx.tenancy.listMembers(other.orgId, { page: 1, limit: 100 })).map((m) => [m.userId, m.role]).sort(),
  });
  const before = await snapshot();

  const refused = (label: string, res: { statusCode: number; body: string }, codes = [403]) =>
    t.ok(codes.includes(res.statusCode), `${label}: ${res.statusCode} ${res.body.slice(0, 140)}`);

  // 1. A caller with integrations:write only.
  const ih = { ...bearer(integrator.token), 'x-org-id': orgId };
  const orgs = (method: string, url: string, payload?: object) => app.inject({ method: method as 'POST', url: `/api/orgs/${orgId}${url}`, headers: bearer(integrator.token), ...(payload ? { payload } : {}) });
  refused('member role change', await orgs('PUT', `/members/${integrator.userId}`, { role: 'admin' }));
  refused('demote an admin', await orgs('PUT', `/members/${admin.userId}`, { role: 'viewer' }));
  refused('move a member', await orgs('POST', `/members/${member.userId}/move`, { targetOrgId: other.orgId, role: 'admin' }));
  refused('remove an admin', await orgs('DELETE', `/members/${admin.userId}`));
  refused('invite by email as admin', await orgs('POST', '/invitations/email', { email: `x-${process.pid}@elsewhere.test`, role: 'admin' }));
  refused('invite by link as admin', await orgs('POST', '/invitations/link', { role: 'admin' }));
  refused('create a wider role', await orgs('POST', '/roles', { name: 'Wide', permissions: ['org:members', 'org:admin'] }));
  refused('widen its own role', await orgs('PUT', `/roles/${integratorRole}`, { permissions: ['integrations:write', 'org:members', 'org:admin'] }));
  refused('widen a role others hold', await orgs('PUT', `/roles/${readers}`, { permissions: ['org:read', 'org:admin'] }));
  refused('delete a role (its holders move to member)', await orgs('DELETE', `/roles/${readers}`));
  refused('transfer ownership', await orgs('POST', '/transfer-ownership', { newOwnerId: integrator.userId }));
  refused('SCIM mapping to admin', await app.inject({ method: 'PATCH', url: `/api/scim/groups/${everyone}/mapping`, headers: ih, payload: { mappedRole: 'admin' } }));
  refused('SCIM mapping to viewer (demotes an admin)', await app.inject({ method: 'PATCH', url: `/api/scim/groups/${everyone}/mapping`, headers: ih, payload: { mappedRole: 'viewer' } }));
  refused('SCIM mapping cleared (the admins fall to the default role)', await app.inject({ method: 'PATCH', url: `/api/scim/groups/${adminsGroup}/mapping`, headers: ih, payload: { mappedRole: null } }));
  refused('SCIM mapping to its own custom role', await app.inject({ method: 'PATCH', url: `/api/scim/groups/${everyone}/mapping`, headers: ih, payload: { mappedCustomRoleId: integratorRole } }));
  refused('SSO defaultRole admin', await sso('admin', ih));
  refused('SSO defaultRole of its own (replaces viewer, which it does not hold)', await sso(integratorRole, ih));
  // Its SCIM token acts with its permissions: every role change through provisioning is refused.
  const iToken = (await app.inject({ method: 'POST', url: '/api/scim/tokens', headers: ih, payload: {} })).json().token as string;
  const iScim = scimAs(iToken);
  const self = await iScim('POST', '/Users', { userName: integrator.email });
  t.equal(self.statusCode, 201, 'linking its own membership changes no role');
  refused('SCIM: itself into the admin-mapped group', await iScim('PATCH', `/Groups/${adminsGroup}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: self.json().id }] }] }));
  refused('SCIM: an admin out of the admin-mapped group', await iScim('PATCH', `/Groups/${adminsGroup}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${adminScim}"]` }] }));
  refused('SCIM: delete the admin-mapped group', await iScim('DELETE', `/Groups/${adminsGroup}`));
  refused('SCIM: deactivate an admin', await iScim('PATCH', `/Users/${adminScim}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] }));
  refused('SCIM: delete an admin', await iScim('DELETE', `/Users/${adminScim}`));
  refused('SCIM: a new account of the verified domain joins with the default role', await iScim('POST', '/Users', { userName: `new@${domain}` }));
  const bulk = await iScim('POST', '/Bulk', { Operations: [{ method: 'PATCH', path: `/Groups/${adminsGroup}`, data: { Operations: [{ op: 'add', path: 'members', value: [{ value: self.json().id }] }] } }] });
  t.equal(bulk.json().Operations[0].status, '403', 'SCIM Bulk: the same rule per operation');

  // 2. An admin reaching for the owner's powers.
  const ah = { ...bearer(admin.token), 'x-org-id': orgId };
  const asAdmin = (method: string, url: string, payload?: object) => app.inject({ method: method as 'POST', url: `/api/orgs/${orgId}${url}`, headers: bearer(admin.token), ...(payload ? { payload } : {}) });
  const ownerLevel = [400, 403, 409];
  refused('admin makes itself owner', await asAdmin('PUT', `/members/${admin.userId}`, { role: 'owner' }), ownerLevel);
  refused('admin demotes the owner', await asAdmin('PUT', `/members/${owner.userId}`, { role: 'viewer' }), ownerLevel);
  refused('admin removes the owner', await asAdmin('DELETE', `/members/${owner.userId}`), ownerLevel);
  refused('admin invites an owner', await asAdmin('POST', '/invitations/link', { role: 'owner' }), ownerLevel);
  refused('admin transfers ownership', await asAdmin('POST', '/transfer-ownership', { newOwnerId: admin.userId }), ownerLevel);
  refused('admin maps a group to owner', await app.inject({ method: 'PATCH', url: `/api/scim/groups/${everyone}/mapping`, headers: ah, payload: { mappedRole: 'owner' } }), ownerLevel);
  refused('admin sets defaultRole owner', await sso('owner', ah), ownerLevel);
  const aToken = (await app.inject({ method: 'POST', url: '/api/scim/tokens', headers: ah, payload: {} })).json().token as string;
  const ownerScimUser = await scimAs(aToken)('POST', '/Users', { userName: owner.email });
  t.equal(ownerScimUser.statusCode, 201, 'the owner linked');
  refused('admin token deactivates the owner', await scimAs(aToken)('PATCH', `/Users/${ownerScimUser.json().id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] }), [200, ...ownerLevel]);
  t.equal((await ctx.tenancy.access(orgId, owner.userId))?.role, 'owner', 'the owner is never deactivated by SCIM');
  await scimAs(aToken)('DELETE', `/Users/${ownerScimUser.json().id}`);

  t.equal(await snapshot(), before, 'nothing changed: memberships, roles, invitations, defaultRole, mappings, groups, the other organization');
  t.equal((await ctx.tenancy.access(orgId, reader.userId))?.role, readers);

  // A token acts with its creator's permissions now: an admin's token loses them with the role.
  await app.inject({ method: 'PUT', url: `/api/orgs/${orgId}/members/${admin.userId}`, headers: bearer(owner.token), payload: { role: 'member' } });
  refused('a demoted creator\'s token', await scimAs(aToken)('PATCH', `/Groups/${adminsGroup}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: memberScim }] }] }));
  t.equal((await ctx.tenancy.access(orgId, member.userId))?.role, 'member');
});
