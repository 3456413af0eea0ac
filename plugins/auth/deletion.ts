// Account deletion with a grace period: request-deletion records a pending request and
// emails a cancellation token; an Agenda job deletes the account when the grace period
// ends unless the request was cancelled. The job is idempotent (a job may run twice on
// the embedded database): the deletion itself is claimed through the exactly-once primitive.
import type { AppContext } from '../../core/context.ts';
import { badRequest, conflict } from '../../core/errors.ts';
import { newId, randomToken, sha256Hex } from '../../core/crypto.ts';
import type { AuthStore, DeletionRequest } from './store.ts';
import type { Sessions } from './sessions.ts';
import type { Credentials } from './credentials.ts';

export const DELETION_JOB = 'auth.delete-account';

const view = (r: DeletionRequest | null) => r
  ? { status: r.status, requestedAt: r.requestedAt.toISOString(), scheduledFor: r.scheduledFor.toISOString(), cancelledAt: r.cancelledAt?.toISOString() ?? null }
  : { status: 'none' as const, requestedAt: null, scheduledFor: null, cancelledAt: null };

export function createDeletion(ctx: AppContext, store: AuthStore, sessions: Sessions, creds: Credentials) {
  const latest = (userId: string) => store.deletions.find({ userId }).sort({ requestedAt: -1 }).limit(1).next();

  async function deleteAccount(requestId: string) {
    const request = await store.deletions.findOne({ _id: requestId });
    if (!request || request.status !== 'pending' || request.scheduledFor > new Date()) return;
    if (!(await ctx.once.claim(`account-deletion:${requestId}`))) return;
    const userId = request.userId;
    await sessions.revokeAll(userId, 'account_deleted');
    await store.cliTokens.deleteMany({ userId });
    await store.avatars.deleteMany({ userId });
    await store.oneTimeTokens.deleteMany({ userId });
    // Organizations the user owns alone go with the account; shared ones keep their data
    // and pass to the longest-standing admin (or member).
    for (const m of await ctx.tenancy.store.listUserMemberships(userId)) {
      if (m.role === 'owner') {
        const others = await ctx.tenancy.store.memberships.find({ orgId: m.orgId, userId: { $ne: userId } }).sort({ joinedAt: 1 }).toArray();
        const heir = others.find((o) => o.role === 'admin') ?? others[0];
        if (heir) {
          await ctx.tenancy.store.memberships.updateOne({ _id: heir._id }, { $set: { role: 'owner' } });
          await ctx.tenancy.store.orgs.updateOne({ _id: m.orgId }, { $set: { ownerId: heir.userId } });
          await ctx.tenancy.invalidateMembership(m.orgId, heir.userId);
          await ctx.tenancy.invalidateOrg(m.orgId);
        } else {
          // The organizations plugin deletes an org completely (every plugin's data, its
          // audit trail, its exactly-once keys); fall back to the engine's hooks without it.
          const organizations = ctx.services.organizations as { remove(orgId: string): Promise<void> } | undefined;
          if (organizations) await organizations.remove(m.orgId);
          else {
            await ctx.deleteOrgData(m.orgId);
            await ctx.tenancy.store.removeOrg(m.orgId);
          }
          await ctx.tenancy.invalidateOrg(m.orgId);
        }
      }
      await ctx.tenancy.store.memberships.deleteOne({ _id: m._id });
      await ctx.tenancy.invalidateMembership(m.orgId, userId);
    }
    await store.users.deleteOne({ _id: userId });
    await creds.users.invalidate(userId);
    await store.deletions.updateOne({ _id: requestId }, { $set: { status: 'completed', completedAt: new Date() } });
  }

  ctx.scheduler.define<{ requestId: string }>(DELETION_JOB, async ({ requestId }) => deleteAccount(requestId));

  return {
    deleteAccount,
    status: async (userId: string) => view(await latest(userId)),

    async request(userId: string, email: string) {
      const current = await latest(userId);
      if (current?.status === 'pending') throw conflict('Account deletion is already pending', view(current));
      const now = new Date();
      const request: DeletionRequest = {
        _id: newId(), userId, status: 'pending', requestedAt: now,
        scheduledFor: new Date(now.getTime() + ctx.config.DELETION_GRACE_DAYS * 24 * 3600 * 1000),
      };
      const token = randomToken('del_');
      await store.deletions.insertOne(request);
      await store.oneTimeTokens.insertOne({ _id: sha256Hex(token), userId, purpose: 'deletion', createdAt: now, expiresAt: request.scheduledFor });
      await ctx.scheduler.at(request.scheduledFor, DELETION_JOB, { requestId: request._id });
      await ctx.mail.send({
        to: email,
        subject: 'Your account is scheduled for deletion',
        text: `Your account and the organizations you own alone will be deleted on ${request.scheduledFor.toISOString()}.\n\n`
          + `To keep your account, cancel: ${ctx.config.FRONTEND_URL}/cancel-deletion?token=${encodeURIComponent(token)}\n\nCancellation token: ${token}\n`,
      });
      return view(request);
    },

    async cancel(token: string) {
      const hash = sha256Hex(token);
      const record = await store.oneTimeTokens.findOne({ _id: hash });
      if (!record || record.purpose !== 'deletion' || record.expiresAt < new Date()) throw badRequest('Invalid or expired cancellation token');
      const request = await latest(record.userId);
      if (!request || request.status !== 'pending') throw badRequest('Invalid or expired cancellation token');
      await store.deletions.updateOne({ _id: request._id }, { $set: { status: 'cancelled', cancelledAt: new Date() } });
      await store.oneTimeTokens.deleteOne({ _id: hash });
      await ctx.scheduler.cancel({ name: DELETION_JOB, data: { requestId: request._id } });
      return { message: 'Account deletion cancelled' };
    },
  };
}
