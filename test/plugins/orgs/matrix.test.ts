// Role × route matrix for every organization route: owner, admin, member, viewer, a custom
// role with the route's permission and one without, a non-member, and the owner of another
// organization. Each call is a probe that, once past the guards, hits a harmless path
// (unknown ids, fresh names), so the verdict is the guard's: allowed, 403 or 404.
import t from 'tap';
import { buildTestApp, register, bearer, type Session } from '../../helper.ts';
import { addMember, addRole } from './helper.ts';

type Verdict = 'allowed' | 'denied' | 'hidden';
type Caller = 'owner' | 'admin' | 'member' | 'viewer' | 'customWith' | 'customWithout' | 'nonMember' | 'otherOwner';
const CALLERS: Caller[] = ['owner', 'admin', 'member', 'viewer', 'customWith', 'customWithout', 'nonMember', 'otherOwner'];
const unknown = 'abcdefabcdefabcdefabcdef';

/** Who passes each kind of requirement (README: built-in roles and their permissions). */
const ALLOWED: Record<string, Caller[]> = {
  'org:read': ['owner', 'admin', 'member', 'viewer', 'customWith'],
  'org:members': ['owner', 'admin', 'customWith'],
  'org:admin': ['owner', 'admin', 'customWith'],
  owner: ['owner'],
  anyMember: ['owner', 'admin', 'member', 'viewer', 'customWith', 'customWithout'],
};

let n = 0;
const fresh = () => `m${++n}-${Math.random().toString(36).slice(2, 6)}`;

t.test('every organization route: who passes, who gets 403, who gets 404', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const orgId = owner.orgId;
  await ctx.tenancy.setPlan(orgId, 'team');
  const withId = await addRole(b, orgId, 'People managers', ['org:read', 'org:members', 'org:admin']);
  const withoutId = await addRole(b, orgId, 'Repo readers', ['repos:read']);
  const sessions: Record<Caller, Session> = {
    owner,
    admin: await addMember(b, orgId, 'admin'),
    member: await addMember(b, orgId, 'member'),
    viewer: await addMember(b, orgId, 'viewer'),
    customWith: await addMember(b, orgId, withId),
    customWithout: await addMember(b, orgId, withoutId),
    nonMember: await register(app),
    otherOwner: await register(app),
  };
  await ctx.tenancy.setPlan(sessions.otherOwner.orgId, 'team');

  const routes: { name: string; needs: keyof typeof ALLOWED; method: string; url: string; payload?: () => unknown; headers?: Record<string, string> }[] = [
    { name: 'GET /:orgId', needs: 'org:read', method: 'GET', url: `/api/orgs/${orgId}` },
    { name: 'PUT /:orgId', needs: 'org:admin', method: 'PUT', url: `/api/orgs/${orgId}`, payload: () => ({ name: `Renamed ${fresh()}` }) },
    { name: 'GET /:orgId/members', needs: 'org:read', method: 'GET', url: `/api/orgs/${orgId}/members` },
    { name: 'PUT /:orgId/members/:userId', needs: 'org:members', method: 'PUT', url: `/api/orgs/${orgId}/members/${unknown}`, payload: () => ({ role: 'viewer' }) },
    { name: 'DELETE /:orgId/members/:userId', needs: 'org:members', method: 'DELETE', url: `/api/orgs/${orgId}/members/${unknown}` },
    { name: 'POST /:orgId/members/:userId/move', needs: 'org:members', method: 'POST', url: `/api/orgs/${orgId}/members/${unknown}/move`, payload: () => ({ targetOrgId: unknown }) },
    { name: 'POST /:orgId/transfer-ownership', needs: 'owner', method: 'POST', url: `/api/orgs/${orgId}/transfer-ownership`, payload: () => ({ newOwnerId: unknown }) },
    { name: 'POST /:orgId/invitations/email', needs: 'org:members', method: 'POST', url: `/api/orgs/${orgId}/invitations/email`, payload: () => ({ email: `${fresh()}@example.com`, role: 'viewer' }) },
    { name: 'POST /:orgId/invitations/link', needs: 'org:members', method: 'POST', url: `/api/orgs/${orgId}/invitations/link`, payload: () => ({ role: 'viewer' }) },
    { name: 'GET /:orgId/invitations', needs: 'org:members', method: 'GET', url: `/api/orgs/${orgId}/invitations` },
    { name: 'DELETE /:orgId/invitations/:id', needs: 'org:members', method: 'DELETE', url: `/api/orgs/${orgId}/invitations/${unknown}` },
    { name: 'GET /:orgId/roles', needs: 'org:admin', method: 'GET', url: `/api/orgs/${orgId}/roles` },
    { name: 'POST /:orgId/roles', needs: 'org:admin', method: 'POST', url: `/api/orgs/${orgId}/roles`, payload: () => ({ name: fresh(), permissions: ['org:read'] }) },
    { name: 'PUT /:orgId/roles/:roleId', needs: 'org:admin', method: 'PUT', url: `/api/orgs/${orgId}/roles/${unknown}`, payload: () => ({ name: fresh() }) },
    { name: 'DELETE /:orgId/roles/:roleId', needs: 'org:admin', method: 'DELETE', url: `/api/orgs/${orgId}/roles/${unknown}` },
    { name: 'GET /:orgId/audit-logs', needs: 'org:admin', method: 'GET', url: `/api/orgs/${orgId}/audit-logs` },
    { name: 'GET /:orgId/audit-logs/export', needs: 'org:admin', method: 'GET', url: `/api/orgs/${orgId}/audit-logs/export` },
    { name: 'GET /api/audit-logs (x-org-id)', needs: 'org:admin', method: 'GET', url: '/api/audit-logs', headers: { 'x-org-id': orgId } },
  ];

  const verdict = async (caller: Caller, r: { method: string; url: string; payload?: () => unknown; headers?: Record<string, string> }) => {
    const res = await app.inject({
      method: r.method as 'GET', url: r.url, headers: { ...bearer(sessions[caller].token), ...r.headers },
      ...(r.payload ? { payload: r.payload() as object } : {}),
    });
    const code = res.statusCode >= 400 ? res.json().error : null;
    const v: Verdict = res.statusCode === 403 && code.code === 'permission_denied' ? 'denied'
      : res.statusCode === 404 && code.message === 'Organization not found' ? 'hidden' : 'allowed';
    return { v, status: res.statusCode, body: res.body.slice(0, 200) };
  };
  const expected = (needs: string, caller: Caller): Verdict => {
    if (caller === 'nonMember' || caller === 'otherOwner') return 'hidden';
    return ALLOWED[needs].includes(caller) ? 'allowed' : 'denied';
  };

  for (const r of routes) {
    await t.test(r.name, async (t) => {
      for (const caller of CALLERS) {
        const got = await verdict(caller, r);
        t.equal(got.v, expected(r.needs, caller), `${caller}: ${expected(r.needs, caller)} (${got.status} ${got.status >= 300 ? got.body : ''})`);
      }
    });
  }

  // Destructive routes last: deleting needs the owner (the others are refused first), and
  // leaving is for any member (after which they are no longer members).
  await t.test('DELETE /:orgId (owner only), then POST /:orgId/leave (any member)', async (t) => {
    const del = { method: 'DELETE', url: `/api/orgs/${orgId}` };
    for (const caller of CALLERS.filter((c) => c !== 'owner')) {
      t.equal((await verdict(caller, del)).v, expected('owner', caller), `DELETE ${caller}: ${expected('owner', caller)}`);
    }
    const leave = { method: 'POST', url: `/api/orgs/${orgId}/leave` };
    for (const caller of CALLERS) {
      const got = await verdict(caller, leave);
      t.equal(got.v, expected('anyMember', caller), `leave ${caller}: ${expected('anyMember', caller)} (${got.status})`);
      if (caller === 'owner') t.equal(got.status, 409, 'the owner is past the guard but must transfer first');
    }
    const gone = await app.inject({ method: 'DELETE', url: `/api/orgs/${orgId}`, headers: bearer(owner.token) });
    t.equal(gone.statusCode, 204, 'DELETE owner: allowed (204)');
  });
});
