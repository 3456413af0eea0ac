// Invitations by email (mailed through the mail module) and by link, the accept step, revoke.
import t from 'tap';
import { buildTestApp, register, bearer, startMailbox, mailText, uniqueEmail, type Session } from '../../helper.ts';

const err = (res: { json(): { error: { code: string } } }) => res.json().error.code;
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

t.test('email invitation: mailed, accepted once by the invited address', async (t) => {
  const mailbox = await startMailbox(t);
  const { app, ctx } = await buildTestApp(t, { env: { SMTP_URL: mailbox.url } });
  const owner = await register(app);
  const orgId = owner.orgId;
  const email = uniqueEmail('invitee');

  const res = await app.inject({ method: 'POST', url: `/api/orgs/${orgId}/invitations/email`, headers: bearer(owner.token), payload: { email: email.toUpperCase() } });
  t.equal(res.statusCode, 201);
  const inv = res.json();
  t.same(Object.keys(inv).sort(), ['_id', 'createdAt', 'email', 'expiresAt', 'invitedBy', 'role', 'status', 'type']);
  t.match(inv, { email, role: 'member', status: 'pending', type: 'email', invitedBy: owner.userId }, 'role defaults to member, email lower-cased');
  const days = (Date.parse(inv.expiresAt) - Date.now()) / 86_400_000;
  t.ok(days > 6.9 && days <= 7, 'expires in 7 days');
  t.notOk('link' in inv, 'the token is not shown to the inviter');

  t.equal(mailbox.messages.length, 1, 'one email sent');
  t.same(mailbox.messages[0].to, [email], 'to the invited address');
  const text = mailText(mailbox.messages[0].raw);
  const token = text.match(/Invitation token: (inv_[\w-]+)/)?.[1];
  t.ok(token, 'the email carries the token');
  t.match(text, /invitations\/accept\?token=inv_/, 'and the accept link');
  const stored = await ctx.db.db.collection('invitations').findOne({ _id: inv._id as never });
  t.notOk(JSON.stringify(stored).includes(token!), 'stored hashed only');

  const dup = await app.inject({ method: 'POST', url: `/api/orgs/${orgId}/invitations/email`, headers: bearer(owner.token), payload: { email } });
  t.equal(dup.statusCode, 409, 'a second pending invitation for the same email: 409');
  t.equal(err(dup), 'orgs.invitation_pending');

  const stranger = await register(app);
  const wrong = await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(stranger.token), payload: { token } });
  t.equal(wrong.statusCode, 403, 'another account cannot use it');
  t.equal(err(wrong), 'orgs.invitation_email_mismatch');

  const invitee = await register(app, email);
  const ok = await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(invitee.token), payload: { token } });
  t.equal(ok.statusCode, 200);
  t.match(ok.json(), { message: 'Invitation accepted', organization: { _id: orgId, role: 'member', memberCount: 2 } });
  t.equal((await ctx.tenancy.findMembership(orgId, invitee.userId))?.role, 'member', 'joined with the invited role');
  t.equal((await app.inject({ method: 'GET', url: `/api/orgs/${orgId}`, headers: bearer(invitee.token) })).statusCode, 200, 'reaches the organization at once');

  const again = await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(invitee.token), payload: { token } });
  t.equal(again.statusCode, 409, 'a used invitation: 409');
  t.equal(err(again), 'orgs.invitation_used');
  t.match(again.json().error.message, /already been used/);
  const list = await app.inject({ method: 'GET', url: `/api/orgs/${orgId}/invitations?status=accepted`, headers: bearer(owner.token) });
  t.same(list.json().invitations.map((i: { _id: string }) => i._id), [inv._id], 'listed as accepted');

  const member = await app.inject({ method: 'POST', url: `/api/orgs/${orgId}/invitations/email`, headers: bearer(owner.token), payload: { email } });
  t.equal(member.statusCode, 409, 'inviting someone already a member: 409');
  t.equal(err(member), 'orgs.already_member');

  const unknown = await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(invitee.token), payload: { token: 'inv_forged' } });
  t.equal(unknown.statusCode, 404, 'an unknown token: 404');
  t.equal(err(unknown), 'orgs.invitation_not_found');

  await ctx.audit.flush();
  const accepted = await ctx.db.db.collection('audit_logs').find({ orgId, action: 'invitation.accepted' }).toArray();
  t.ok(accepted.some((e) => e.statusCode === 200 && e.userId === invitee.userId), "the acceptance is in the organization's trail");
  t.ok(accepted.every((e) => e.body.token === '[REDACTED]'), 'with the token redacted');
  const invited = await ctx.db.db.collection('audit_logs').find({ orgId, action: 'member.invited' }).toArray();
  t.ok(invited.some((e) => e.details?.target?.email === email), 'the invitation is audited as member.invited');
});

t.test('link invitation: several people, once each, with the invited role', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const owner = await register(app);
  const res = await app.inject({ method: 'POST', url: `/api/orgs/${owner.orgId}/invitations/link`, headers: bearer(owner.token), payload: { role: 'viewer' } });
  t.equal(res.statusCode, 201);
  const inv = res.json();
  t.same(Object.keys(inv).sort(), ['_id', 'createdAt', 'expiresAt', 'invitedBy', 'link', 'role', 'status', 'type']);
  t.match(inv, { type: 'link', role: 'viewer', status: 'pending' });
  t.match(inv.link, /^http:\/\/localhost:5173\/invitations\/accept\?token=inv_/, 'a URL carrying the token');
  const noBody = await app.inject({ method: 'POST', url: `/api/orgs/${owner.orgId}/invitations/link`, headers: bearer(owner.token) });
  t.equal(noBody.statusCode, 201, 'the body is optional');
  t.equal(noBody.json().role, 'member', 'role defaults to member');

  const token = tokenOf(inv.link);
  const users = [await register(app), await register(app), await register(app)];
  const results = await Promise.all(users.map((u) => app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(u.token), payload: { token } })));
  t.same(results.map((r) => r.statusCode), [200, 200, 200], 'three people join through one link, even at once');
  for (const u of users) t.equal((await ctx.tenancy.findMembership(owner.orgId, u.userId))?.role, 'viewer', 'each as viewer');

  const twice = await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(users[0].token), payload: { token } });
  t.equal(twice.statusCode, 409, 'a member using the link again: 409');
  await app.inject({ method: 'DELETE', url: `/api/orgs/${owner.orgId}/members/${users[0].userId}`, headers: bearer(owner.token) });
  const back = await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(users[0].token), payload: { token } });
  t.equal(back.statusCode, 409, 'a removed member cannot come back through the link they already used');
  t.equal(err(back), 'orgs.invitation_used');
  const listed = await app.inject({ method: 'GET', url: `/api/orgs/${owner.orgId}/invitations?status=pending`, headers: bearer(owner.token) });
  t.ok(listed.json().invitations.some((i: { _id: string; link?: string }) => i._id === inv._id && !i.link), 'still pending, listed without its link');
});

t.test('revoke: 204, idempotent; revoked and expired invitations are refused with 410', async (t) => {
  const mailbox = await startMailbox(t);
  const { app, ctx } = await buildTestApp(t, { env: { SMTP_URL: mailbox.url } });
  const owner = await register(app);
  const orgId = owner.orgId;
  const link = async () => (await app.inject({ method: 'POST', url: `/api/orgs/${orgId}/invitations/link`, headers: bearer(owner.token), payload: {} })).json();
  const accept = (s: Session, token: string) => app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(s.token), payload: { token } });
  const user = await register(app);

  const a = await link();
  const revoke = (id: string) => app.inject({ method: 'DELETE', url: `/api/orgs/${orgId}/invitations/${id}`, headers: bearer(owner.token) });
  const revoked = await revoke(a._id);
  t.equal(revoked.statusCode, 204);
  t.equal((await revoke(a._id)).statusCode, 204, 'revoking again: 204');
  const refused = await accept(user, tokenOf(a.link));
  t.equal(refused.statusCode, 410, 'a revoked invitation: 410');
  t.equal(err(refused), 'orgs.invitation_revoked');
  t.match(refused.json().error.message, /revoked/);

  const e = await link();
  await ctx.db.db.collection('invitations').updateOne({ _id: e._id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
  const expired = await accept(user, tokenOf(e.link));
  t.equal(expired.statusCode, 410, 'past its expiry, even before the job ran: 410');
  t.equal(err(expired), 'orgs.invitation_expired');
  t.match(expired.json().error.message, /expired/);
  const shown = (await app.inject({ method: 'GET', url: `/api/orgs/${orgId}/invitations`, headers: bearer(owner.token) })).json().invitations;
  t.equal(shown.find((i: { _id: string }) => i._id === e._id).status, 'expired', 'listed as expired at once');
  t.equal((await revoke(e._id)).statusCode, 409, 'an expired invitation cannot be revoked');

  await app.inject({ method: 'POST', url: `/api/orgs/${orgId}/invitations/email`, headers: bearer(owner.token), payload: { email: user.email } });
  const token = mailText(mailbox.messages[0].raw).match(/Invitation token: (inv_[\w-]+)/)![1];
  t.equal((await accept(user, token)).statusCode, 200);
  const used = (await app.inject({ method: 'GET', url: `/api/orgs/${orgId}/invitations?status=accepted`, headers: bearer(owner.token) })).json().invitations[0];
  const notPending = await revoke(used._id);
  t.equal(notPending.statusCode, 409, 'an accepted invitation cannot be revoked');
  t.equal(err(notPending), 'orgs.invitation_not_pending');
  t.equal((await revoke('abcdefabcdefabcdefabcdef')).statusCode, 404, 'unknown: 404');

  await ctx.audit.flush();
  t.ok((await ctx.db.db.collection('audit_logs').find({ orgId, action: 'invitation.revoked' }).toArray()).length >= 2, 'audited as invitation.revoked');
});
