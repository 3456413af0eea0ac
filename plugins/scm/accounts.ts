// Host accounts linked to users (docs/scm.md "Linked accounts"): one host account, one user
// (the unique index on scmId decides under concurrent callbacks); the user a host account
// signs in as (its id, else its verified primary email, else a new account).
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { AppError, conflict, notFound } from '../../core/errors.ts';
import { isDuplicateKey } from '../../core/db.ts';
import type { AuthService } from '../auth/service.ts';
import type { Host, HostUser } from './host.ts';
import type { ScmAccount, ScmStore } from './store.ts';

const accountView = (a: ScmAccount) => ({
  scmId: a.scmId, login: a.login, name: a.name, email: a.email, avatarUrl: a.avatarUrl, active: a.active, linkedAt: a.linkedAt.toISOString(),
});

export function createLinkedAccounts(ctx: AppContext, store: ScmStore, host: Host, auth: AuthService) {
  /** The verified primary email of the host account; null when it has none (or the token may not read emails). */
  async function verifiedEmail(token: string): Promise<string | null> {
    const emails = await host.emails(token);
    return emails.find((e) => e.primary && e.verified)?.email ?? null;
  }

  const accountFields = (u: HostUser, token: string, scope: string) => ({
    login: u.login, name: u.name ?? null, email: u.email ?? null, avatarUrl: u.avatar_url ?? null,
    token: ctx.sealer.seal(token), scope, updatedAt: new Date(),
  });

  /** Links the host account to the user; false when another user holds it (unique index on scmId). */
  async function link(userId: string, u: HostUser, token: string, scope: string, makeActive: boolean): Promise<boolean> {
    const scmId = String(u.id);
    const existing = await store.accountByScmId(scmId);
    if (existing) {
      if (existing.userId !== userId) return false;
      await store.refreshAccount(userId, scmId, accountFields(u, token, scope));
    } else {
      try {
        await store.insertAccount({ _id: newId(), userId, scmId, ...accountFields(u, token, scope), active: false, linkedAt: new Date() });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        return (await store.accountByScmId(scmId))?.userId === userId;
      }
    }
    if (makeActive || !(await store.activeAccount(userId))) {
      await store.setActiveAccount(userId, scmId);
      await auth.sourceHost.setScmId(userId, scmId);
    }
    return true;
  }

  /** The user of a host account: by its id, else by the verified primary email, else a new account with its own organization. */
  async function signInUser(u: HostUser, token: string): Promise<{ userId: string; created: boolean } | { reason: string }> {
    const linked = await store.accountByScmId(String(u.id));
    if (linked) return { userId: linked.userId, created: false };
    const email = await verifiedEmail(token);
    if (!email) return { reason: 'no_verified_email' };
    const known = await auth.userDirectory.byEmail(email);
    if (known) return { userId: known._id, created: false };
    try {
      const created = await auth.sourceHost.createAccount({ email, name: u.name ?? u.login, scmId: String(u.id) });
      return { userId: created.userId, created: true };
    } catch (err) {
      // A concurrent sign-in created it first.
      const winner = (err as AppError).code === 'conflict' ? await auth.userDirectory.byEmail(email) : null;
      if (!winner) throw err;
      return { userId: winner._id, created: false };
    }
  }

  return {
    link,
    signInUser,
    list: async (userId: string) => (await store.accountsOf(userId)).map(accountView),
    async setActive(userId: string, scmId: string) {
      if (!(await store.userAccount(userId, scmId))) throw notFound('Linked account');
      await store.setActiveAccount(userId, scmId);
      await auth.sourceHost.setScmId(userId, scmId);
      return { message: 'Active account set', scmId };
    },
    async unlink(userId: string, scmId: string) {
      const accounts = await store.accountsOf(userId);
      const target = accounts.find((a) => a.scmId === scmId);
      if (!target) throw notFound('Linked account');
      if (accounts.length === 1 && !(await auth.sourceHost.hasPassword(userId))) {
        throw conflict('This is the only way this account signs in: set a password (POST /api/auth/forgot-password) or link another account before unlinking it');
      }
      await store.removeAccount(userId, scmId);
      if (target.active) {
        const next = accounts.find((a) => a.scmId !== scmId);
        if (next) await store.setActiveAccount(userId, next.scmId);
        await auth.sourceHost.setScmId(userId, next?.scmId ?? null);
      }
      return { message: 'Account unlinked' };
    },
  };
}
export type LinkedAccounts = ReturnType<typeof createLinkedAccounts>;
