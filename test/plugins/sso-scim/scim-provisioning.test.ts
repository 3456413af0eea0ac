// Which account a SCIM user is and whether it joins (RFC 7643 userName is any string): a
// member is linked; an account of a domain the organization verified joins; anyone else is
// invited and joins only by accepting; a user without an email has no account until one comes.
import t from 'tap';
import { buildTestApp, register, bearer, startMailbox, mailText } from '../../helper.ts';
import { startDns } from './dns.ts';
import { verifyDomain } from './verified.ts';

const SCIM = 'application/scim+json';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

t.test('SCIM provisioning: members, verified domains, invitations, users without email', async (t) => {
  const dns = await startDns(t);
  const mailbox = await startMailbox(t);
  const { app, ctx, services } = await buildTestApp(t, { env: { DNS_SERVERS: dns.server, SMTP_URL: mailbox.url } });
  const owner = await register(app);
  const orgId = owner.orgId;
  await ctx.tenancy.setPlan(orgId, 'enterprise');
  const admin = { ...bearer(owner.token), 'x-org-id': orgId };
  const owned = `owned-${process.pid}.test`;
  await verifyDomain(t, app, dns, admin, owned);
  const token = (await app.inject({ method: 'POST', url: '/api/scim/tokens', headers: admin, payload: {} })).json().token as string;
  const call = (method: string, url: string, payload?: unknown) => app.inject({
    method: method as 'GET', url: `/api/scim/v2${url}`, headers: { ...bearer(token), ...(payload !== undefined ? { 'content-type': SCIM } : {}) },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  const directory = services.auth!.userDirectory;
  const invitations = async () => (await app.inject({ method: 'GET', url: `/api/orgs/${orgId}/invitations`, headers: bearer(owner.token) })).json().invitations as { _id: string; email?: string; status: string; role: string }[];

  // Someone else's account (a domain this organization has not verified): invited, not added.
  const stranger = await register(app);
  const invited = await call('POST', '/Users', { userName: 'stranger-1', emails: [{ value: stranger.email, primary: true }] });
  t.equal(invited.statusCode, 201, invited.body);
  t.equal(await ctx.tenancy.findMembership(orgId, stranger.userId), null, 'not a member before accepting');
  const inv = (await invitations()).find((i) => i.email === stranger.email);
  t.match(inv, { status: 'pending', role: 'member' }, 'a pending invitation with the default role');
  const mail = mailText((await mailbox.next()).raw);
  const invToken = mail.match(/Invitation token: (inv_[\w-]+)/)![1];
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: stranger.email, password: 'correct horse battery' } });
  t.equal(login.statusCode, 200, 'password sign-in unaffected by a pending invitation');
  const accepted = await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(stranger.token), payload: { token: invToken } });
  t.equal(accepted.statusCode, 200, accepted.body);
  t.equal((await ctx.tenancy.access(orgId, stranger.userId))?.role, 'member', 'a member once they accepted');
  const off = await call('PATCH', `/Users/${invited.json().id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
  t.equal(off.statusCode, 200, off.body);
  t.equal(await ctx.tenancy.access(orgId, stranger.userId), null, 'once a member, SCIM deactivates them (linked on the next change)');

  // Deactivated before accepting: no invitation; an invited user deleted: the invitation is withdrawn.
  const quiet = await register(app);
  t.equal((await call('POST', '/Users', { userName: quiet.email, active: false })).statusCode, 201);
  t.notOk((await invitations()).some((i) => i.email === quiet.email), 'an inactive user is not invited');
  const gone = await register(app);
  const goneUser = await call('POST', '/Users', { userName: gone.email });
  t.equal((await call('DELETE', `/Users/${goneUser.json().id}`)).statusCode, 204);
  t.equal((await invitations()).find((i) => i.email === gone.email)?.status, 'revoked', 'DELETE withdraws the pending invitation');

  // A verified domain: the organization owns the identities under it; the account joins.
  const employee = await call('POST', '/Users', { userName: 'E1234', emails: [{ value: 'other@x.test' }, { value: `ann@${owned}`, primary: true }], displayName: 'Ann' });
  t.equal(employee.statusCode, 201, employee.body);
  const ann = await directory.byEmail(`ann@${owned}`);
  t.ok(ann, 'the primary email names the account (userName is not an email)');
  t.equal((await ctx.tenancy.access(orgId, ann!._id))?.role, 'member', 'and it joined');
  const existing = await register(app, `bob@${owned}`);
  t.equal((await call('POST', '/Users', { userName: `bob@${owned}`, active: false })).statusCode, 201);
  const bob = await ctx.tenancy.findMembership(orgId, existing.userId);
  t.ok(bob?.deactivated, 'an existing account of a verified domain joins, deactivated as asked');

  // No email at all: a SCIM user with no account (nobody signs in as it) until an email arrives.
  const nameOnly = await call('POST', '/Users', { userName: 'just-a-name' });
  t.equal(nameOnly.statusCode, 201, nameOnly.body);
  t.equal((await call('GET', `/Users/${nameOnly.json().id}`)).json().userName, 'just-a-name');
  t.equal((await call('POST', '/Users', { userName: 'JUST-A-NAME' })).statusCode, 409, 'userName stays unique, case-insensitively');
  const second = await call('POST', '/Users', { userName: 'another-name' });
  t.equal(second.statusCode, 201, 'several users without an account coexist');
  const later = await call('PATCH', `/Users/${nameOnly.json().id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'emails', value: [{ value: `carl@${owned}`, primary: true }] }] });
  t.equal(later.statusCode, 200, later.body);
  const carl = await directory.byEmail(`carl@${owned}`);
  t.ok(carl && await ctx.tenancy.access(orgId, carl._id), 'an email of a verified domain added later: the account is created and joins');
});
