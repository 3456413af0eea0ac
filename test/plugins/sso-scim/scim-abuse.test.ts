// The SCIM abuse cases, played as the attacker: an Enterprise organization that claims
// another company's accounts by email, and a member holding only integrations:write who
// grants itself admin through a group mapping.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { addMember, addRole } from '../orgs/helper.ts';
import { generateKeyPair } from './idp.ts';

const SCIM = 'application/scim+json';

t.test('SCIM cannot capture an account of another organization (enforcedDomains + POST /Users active:false)', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const victim = await register(app);
  const attacker = await register(app);
  await ctx.tenancy.setPlan(attacker.orgId, 'enterprise');
  const admin = { ...bearer(attacker.token), 'x-org-id': attacker.orgId };
  const domain = victim.email.split('@')[1];
  // The attacker names the victim's domain (a later rule may already refuse it; the SCIM call must hold either way).
  await app.inject({ method: 'PUT', url: '/api/sso/config', headers: admin, payload: {
    saml: { entryPoint: 'https://idp.attacker.test/sso', issuer: 'https://sp.attacker.test', cert: generateKeyPair().cert }, enforcedDomains: [domain], enabled: true,
  } });
  const token = (await app.inject({ method: 'POST', url: '/api/scim/tokens', headers: admin, payload: {} })).json().token as string;
  const res = await app.inject({ method: 'POST', url: '/api/scim/v2/Users', headers: { ...bearer(token), 'content-type': SCIM },
    payload: JSON.stringify({ userName: victim.email, active: false }) });
  t.ok(res.statusCode < 500, `no 500 (${res.statusCode})`);
  t.equal(await ctx.tenancy.findMembership(attacker.orgId, victim.userId), null, 'the victim is not added to the attacker organization');
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: victim.email, password: 'correct horse battery' } });
  t.equal(login.statusCode, 200, `the victim still signs in with a password (${login.body.slice(0, 120)})`);
  t.ok(await ctx.tenancy.access(victim.orgId, victim.userId), 'and keeps their own organization');
});

t.test('integrations:write alone cannot make itself admin or demote an admin through SCIM group mappings', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const orgId = owner.orgId;
  await ctx.tenancy.setPlan(orgId, 'enterprise');
  const integrator = await addMember(b, orgId, await addRole(b, orgId, 'Integrator', ['org:read', 'integrations:write']));
  const admin = await addMember(b, orgId, 'admin');
  const headers = { ...bearer(integrator.token), 'x-org-id': orgId };
  const created = await app.inject({ method: 'POST', url: '/api/scim/tokens', headers, payload: {} });
  const token = created.json().token as string;
  const scim = (method: string, url: string, payload: unknown) => app.inject({
    method: method as 'POST', url: `/api/scim/v2${url}`, headers: { ...bearer(token), 'content-type': SCIM }, payload: JSON.stringify(payload),
  });
  const self = await scim('POST', '/Users', { userName: integrator.email });
  const victim = await scim('POST', '/Users', { userName: admin.email });
  const up = await scim('POST', '/Groups', { displayName: 'Up', members: self.statusCode === 201 ? [{ value: self.json().id }] : [] });
  const down = await scim('POST', '/Groups', { displayName: 'Down', members: victim.statusCode === 201 ? [{ value: victim.json().id }] : [] });
  const promote = up.statusCode === 201
    ? await app.inject({ method: 'PATCH', url: `/api/scim/groups/${up.json().id}/mapping`, headers, payload: { mappedRole: 'admin' } })
    : null;
  const demote = down.statusCode === 201
    ? await app.inject({ method: 'PATCH', url: `/api/scim/groups/${down.json().id}/mapping`, headers, payload: { mappedRole: 'viewer' } })
    : null;
  if (promote) t.equal(promote.statusCode, 403, `mapping a group to admin: ${promote.body.slice(0, 160)}`);
  if (demote) t.equal(demote.statusCode, 403, `mapping a group holding an admin to viewer: ${demote.body.slice(0, 160)}`);
  t.not((await ctx.tenancy.access(orgId, integrator.userId))?.role, 'admin', 'the integrator did not become admin');
  t.equal((await ctx.tenancy.access(orgId, admin.userId))?.role, 'admin', 'the admin was not demoted');
});
