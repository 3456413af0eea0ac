// Account deletion with a grace period: request-deletion records a pending request and
// emails a cancellation token; an Agenda job deletes the account when the grace period
// ends unless the request was cancelled. The job is idempotent (a job may run twice on
// the embedded database): the deletion itself is claimed through the exactly-once primitive.
import type { AppContext } from '../../core/context.ts';
import { badRequest, conflict } from '../../core/errors.ts';
import { newId, randomToken, sha256Hex } from '../../core/crypto.ts';
import type { AuthStore, DeletionRequest } from './store.ts';
import type { Sessions } from './sessions.ts';
import type { Credentials } from './credential-readers.ts';

export const DELETION_JOB = 'auth.delete-account';

const view = (r: DeletionRequest | null) => r
  ? { status: r.status, requestedAt: r.requestedAt.toISOString(), scheduledFor: r.scheduledFor.toISOString(), cancelledAt: r.cancelledAt?.toISOString() ?? null }
  : { status: 'none' as const, requestedAt: null, scheduledFor: null, cancelledAt: null };

/**
 * removeOrganization deletes an organization the user owned alone, completely: the orgs
 * plugin attaches it to this plugin's service (auth never imports orgs).
 */
export function createDeletion(ctx: AppContext, store: AuthStore, sessions: Sessions, creds: Credentials, removeOrganization: (orgId: string) => Promise<void>) {
  const latest = (userId: string) => store.latestDeletion(userId);

  async function deleteAccount(requestId: string) {
    const request = await store.deletionById(requestId);
    if (!request || request.status !== 'pending' || request.scheduledFor > new Date()) return;
    if (!(await ctx.once.claim(`account-deletion:${requestId}`))) return;
    const userId = request.userId;
    await sessions.revokeAll(userId, 'account_deleted');
    await store.removeUserCredentials(userId);
    // Organizations the user owns alone go with the account; shared ones keep their data
    // and pass to the longest-standing admin (or member): core/tenancy chooses the heir.
    await ctx.tenancy.removeAccount(userId, removeOrganization);
    await store.removeUser(userId);
    await creds.users.invalidate(userId);
    await store.completeDeletion(requestId, new Date());
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
      await store.insertDeletion(request);
      await store.insertOneTimeToken({ _id: sha256Hex(token), userId, purpose: 'deletion', createdAt: now, expiresAt: request.scheduledFor });
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
      const record = await store.oneTimeToken(hash);
      if (!record || record.purpose !== 'deletion' || record.expiresAt < new Date()) throw badRequest('Invalid or expired cancellation token');
      const request = await latest(record.userId);
      if (!request || request.status !== 'pending') throw badRequest('Invalid or expired cancellation token');
      await store.cancelDeletion(request._id, new Date());
      await store.spendOneTimeToken(hash);
      await ctx.scheduler.cancel({ name: DELETION_JOB, data: { requestId: request._id } });
      return { message: 'Account deletion cancelled' };
    },
  };
}
