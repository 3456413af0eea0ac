// Which accounts an organization's identity provider may sign in (ISSUE-32 point 1): an
// existing account only when the organization verified the email's domain or the account
// holder linked this IdP themselves; a new account (JIT) only in a verified domain. The
// attacker is the admin of another Enterprise organization with an IdP of their own.
import t, { type Test } from 'tap';
import { buildTestApp, register, bearer, uniqueEmail } from '../../helper.ts';
import { startDns } from './dns.ts';
import { samlFlow } from './flow.ts';

t.test('an IdP signs in only accounts its organization owns or that linked it', async (t) => {
  const dns = await startDns(t);
  const built = await buildTestApp(t, { env: { DNS_SERVERS: dns.server } });
  const { app, ctx } = built;
  const flow = samlFlow(t, built);
  const stamp = Date.now();
  const victimDomain = `victim-${stamp}.example.test`;
  const attackerDomain = `attacker-${stamp}.example.test`;

  // Org A: the victim owns it; org B: the attacker administers it, with an IdP of their own.
  const victim = await register(app, uniqueEmail('owner').replace('example.com', victimDomain));
  await ctx.tenancy.setPlan(victim.orgId, 'enterprise');
  const attacker = await register(app);
  const attackerIdp = await flow.configure(attacker);
  const platformAdmin = await register(app, uniqueEmail('operator').replace('example.com', `ops-${stamp}.example.test`));
  await ctx.db.db.collection('users').updateOne({ _id: platformAdmin.userId } as object, { $set: { role: 'admin' } });

  /** A refused assertion: no code, the reason, and nothing created, linked or joined. */
  async function refused(t: Test, email: string, reason: string) {
    const before = await flow.auditOf(attacker.orgId, 'auth.login_failed');
    const existedBefore = Boolean(await flow.accountOf(email));
    const { redirect, session } = await flow.signIn(attackerIdp, attacker.orgId, email);
    t.equal(session, null, `no session for ${email}`);
    t.equal(redirect.path, '/auth/error', `error page (${redirect.location})`);
    t.equal(redirect.reason, reason, `reason ${reason}`);
    const account = await flow.accountOf(email);
    t.equal(Boolean(account), existedBefore, 'no account created');
    if (account) t.equal(await ctx.tenancy.findMembership(attacker.orgId, account._id), null, 'no membership in the attacker org');
    t.equal((await flow.auditOf(attacker.orgId, 'auth.login')).length, 0, 'no auth.login entry');
    const failed = await flow.auditOf(attacker.orgId, 'auth.login_failed');
    t.equal(failed.length, before.length + 1, 'one auth.login_failed entry');
    t.equal(failed[0]?.details?.reason, reason);
  }

  t.test("org B's admin signs in as org A's owner", (t) => refused(t, victim.email, 'account_not_linked').then(() => t.end()));
  t.test('org B signs in as a platform admin', (t) => refused(t, platformAdmin.email, 'account_not_linked').then(() => t.end()));
  t.test('JIT for a domain org B has not verified', (t) => refused(t, `new-${stamp}@${victimDomain}`, 'domain_not_verified').then(() => t.end()));
  t.test('a domain verified by org A does not let org B in', async (t) => {
    await flow.verifyDomain(dns, victim, victimDomain);
    await refused(t, victim.email, 'account_not_linked');
    await refused(t, `another-${stamp}@${victimDomain}`, 'domain_not_verified');
  });
  t.test('being a member of org B is not enough', async (t) => {
    await ctx.tenancy.addMember({ orgId: attacker.orgId, userId: victim.userId, role: 'member' });
    const { session, redirect } = await flow.signIn(attackerIdp, attacker.orgId, victim.email);
    t.equal(session, null, 'no session for a member whose domain org B does not own');
    t.equal(redirect.reason, 'account_not_linked');
    await ctx.tenancy.removeMember(attacker.orgId, victim.userId);
  });

  t.test('a verified domain: existing accounts sign in, new ones are created', async (t) => {
    await flow.verifyDomain(dns, attacker, attackerDomain);
    const employee = await register(app, uniqueEmail('employee').replace('example.com', attackerDomain));
    const existing = await flow.signIn(attackerIdp, attacker.orgId, employee.email.toUpperCase());
    t.equal(existing.redirect.path, '/auth/callback', existing.redirect.location);
    t.equal(existing.session?.user.id, employee.userId, 'the existing account of the verified domain');
    t.equal((await ctx.tenancy.access(attacker.orgId, employee.userId))?.role, 'member', 'joined with the default role');
    const fresh = `jit-${stamp}@${attackerDomain}`;
    const jit = await flow.signIn(attackerIdp, attacker.orgId, fresh);
    t.equal(jit.session?.user.email, fresh, 'JIT in a verified domain');
    t.ok(await flow.accountOf(fresh), 'the account exists');
  });

  t.test('the account holder links the IdP themselves', async (t) => {
    const holder = await register(app, uniqueEmail('holder').replace('example.com', victimDomain));
    const nameId = `holder-${stamp}@idp-identity.example.test`;
    const inOrg = (token: string) => ({ ...bearer(token), 'x-org-id': attacker.orgId });
    const start = () => app.inject({ method: 'POST', url: '/api/sso/links', headers: inOrg(holder.token) });
    t.equal((await app.inject({ method: 'POST', url: '/api/sso/links', headers: { 'x-org-id': attacker.orgId } })).statusCode, 401, 'needs a session');
    const stranger = await register(app);
    t.equal((await app.inject({ method: 'POST', url: '/api/sso/links', headers: inOrg(stranger.token) })).statusCode, 404, 'only a member of the organization starts a link');
    // The holder was invited with their own address and accepted: a member, outside the verified domains.
    await ctx.tenancy.addMember({ orgId: attacker.orgId, userId: holder.userId, role: 'member' });
    const started = await start();
    t.equal(started.statusCode, 200, started.body);
    const back = await flow.answer(attackerIdp, flow.requestIdOf(started.json().redirectUrl), nameId);
    t.equal(back.path, '/auth/sso-link', `the confirm page (${back.location})`);
    t.equal(new URL(back.location).searchParams.get('orgId'), attacker.orgId, 'naming the organization');
    t.ok(back.code, 'with a one-time code');
    t.equal((await flow.signIn(attackerIdp, attacker.orgId, nameId)).redirect.reason, 'domain_not_verified', 'no link before the holder confirms');

    const confirm = (token: string, code: string) => app.inject({ method: 'POST', url: '/api/sso/links/confirm', headers: inOrg(token), payload: { code } });
    const other = await register(app);
    await ctx.tenancy.addMember({ orgId: attacker.orgId, userId: other.userId, role: 'admin' });
    t.equal((await confirm(other.token, back.code!)).statusCode, 401, "another user's session cannot confirm it (even an admin of the organization)");
    t.equal((await confirm(holder.token, back.code!)).statusCode, 201, 'the holder can, after that');
    await app.inject({ method: 'DELETE', url: '/api/sso/links', headers: inOrg(holder.token) });
    const again = await flow.answer(attackerIdp, flow.requestIdOf((await start()).json().redirectUrl), nameId);
    const ok = await confirm(holder.token, again.code!);
    t.equal(ok.statusCode, 201, ok.body);
    t.match(ok.json(), { orgId: attacker.orgId, nameId });
    t.equal((await confirm(holder.token, again.code!)).statusCode, 401, 'a code confirms once');
    const entry = (await flow.auditOf(attacker.orgId, 'sso.link_created'))[0];
    t.equal(entry?.userId, holder.userId, 'the link is audited in the organization');
    t.notOk(JSON.stringify(entry).includes(again.code!), 'without the code');
    t.match((await app.inject({ method: 'GET', url: '/api/sso/links', headers: inOrg(holder.token) })).json().links, [{ orgId: attacker.orgId, nameId }]);

    const linked = await flow.signIn(attackerIdp, attacker.orgId, nameId);
    t.equal(linked.session?.user.id, holder.userId, 'the linked identity signs the holder in');
    t.equal((await flow.signIn(attackerIdp, attacker.orgId, holder.email)).redirect.reason, 'account_not_linked', 'the link is for its NameID only');

    t.equal((await app.inject({ method: 'DELETE', url: '/api/sso/links', headers: inOrg(holder.token) })).statusCode, 200, 'unlinked');
    t.equal((await app.inject({ method: 'DELETE', url: '/api/sso/links', headers: inOrg(holder.token) })).statusCode, 404, 'nothing left to unlink');
    t.equal((await flow.signIn(attackerIdp, attacker.orgId, nameId)).session, null, 'no sign-in after unlinking');
  });
});
