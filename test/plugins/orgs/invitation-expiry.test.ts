// Invitations expire by themselves (the scheduled job), the exactly-once race, custom roles.
import t from 'tap';
import { buildTestApp, register, bearer, startMailbox, mailText } from '../../helper.ts';
import { EXPIRE_JOB } from '../../../plugins/orgs/invitations.ts';
import { addRole } from './helper.ts';

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

t.test('invitations expire by themselves: the scheduled job marks them', async (t) => {
  const { app, ctx } = await buildTestApp(t, { runJobs: true });
  const owner = await register(app);
  const make = async () => (await app.inject({ method: 'POST', url: `/api/orgs/${owner.orgId}/invitations/link`, headers: bearer(owner.token), payload: {} })).json();
  const old = await make();
  const fresh = await make();
  const invitations = ctx.db.db.collection('invitations');
  await invitations.updateOne({ _id: old._id }, { $set: { expiresAt: new Date(Date.now() - 60_000) } });
  const jobs = await ctx.db.db.collection('agenda_jobs').find({ name: EXPIRE_JOB }).toArray();
  t.equal(jobs.length, 1, 'the job is scheduled (every 15 minutes)');

  await ctx.scheduler.now(EXPIRE_JOB, {});
  let status = '';
  // Agenda picks the job up on its next poll; on a loaded CI machine that took over 10 s.
  for (let i = 0; i < 600 && status !== 'expired'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    status = (await invitations.findOne({ _id: old._id }))!.status;
  }
  t.equal(status, 'expired', 'the pending invitation past its date is expired');
  t.equal((await invitations.findOne({ _id: fresh._id }))!.status, 'pending', 'the others stay pending');
});

t.test('race: concurrent accepts spend an invitation exactly once', async (t) => {
  const mailbox = await startMailbox(t);
  const { app, ctx } = await buildTestApp(t, { env: { SMTP_URL: mailbox.url } });
  const owner = await register(app);
  const invitee = await register(app);
  await app.inject({ method: 'POST', url: `/api/orgs/${owner.orgId}/invitations/email`, headers: bearer(owner.token), payload: { email: invitee.email } });
  const token = mailText(mailbox.messages[0].raw).match(/Invitation token: (inv_[\w-]+)/)![1];

  const results = await Promise.all(Array.from({ length: 20 }, () =>
    app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(invitee.token), payload: { token } })));
  const codes = results.map((r) => r.statusCode);
  t.equal(codes.filter((c) => c === 200).length, 1, 'exactly one of 20 concurrent accepts succeeds');
  t.ok(codes.every((c) => c === 200 || c === 409), 'the others get 409');
  t.equal(await ctx.db.db.collection('memberships').countDocuments({ orgId: owner.orgId, userId: invitee.userId }), 1, 'one membership');

  const link = (await app.inject({ method: 'POST', url: `/api/orgs/${owner.orgId}/invitations/link`, headers: bearer(owner.token), payload: {} })).json().link;
  const user = await register(app);
  const same = await Promise.all(Array.from({ length: 20 }, () =>
    app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(user.token), payload: { token: tokenOf(link) } })));
  t.equal(same.filter((r) => r.statusCode === 200).length, 1, 'a link: one success per person, however many concurrent attempts');
});

t.test('invitations with a custom role; the role deleted before acceptance', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'team');
  const roleId = await addRole(b, owner.orgId, 'Auditor', ['org:read']);
  const inv = await app.inject({ method: 'POST', url: `/api/orgs/${owner.orgId}/invitations/link`, headers: bearer(owner.token), payload: { role: roleId } });
  t.equal(inv.statusCode, 201);
  t.equal(inv.json().role, roleId, 'a custom role id of the organization');
  const bogus = await app.inject({ method: 'POST', url: `/api/orgs/${owner.orgId}/invitations/link`, headers: bearer(owner.token), payload: { role: 'abcdefabcdefabcdefabcdef' } });
  t.equal(bogus.statusCode, 400, 'an unknown custom role: 400');
  const first = await register(app);
  await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(first.token), payload: { token: tokenOf(inv.json().link) } });
  t.equal((await ctx.tenancy.findMembership(owner.orgId, first.userId))?.role, roleId, 'joined with the custom role');

  t.equal((await app.inject({ method: 'DELETE', url: `/api/orgs/${owner.orgId}/roles/${roleId}`, headers: bearer(owner.token) })).statusCode, 204);
  const pending = (await app.inject({ method: 'GET', url: `/api/orgs/${owner.orgId}/invitations?status=pending`, headers: bearer(owner.token) })).json().invitations;
  t.equal(pending[0].role, 'member', 'the pending invitation now invites as member');
  const second = await register(app);
  await app.inject({ method: 'POST', url: '/api/orgs/invitations/accept', headers: bearer(second.token), payload: { token: tokenOf(inv.json().link) } });
  t.equal((await ctx.tenancy.findMembership(owner.orgId, second.userId))?.role, 'member', 'and joins as member');
});
