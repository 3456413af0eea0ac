// Profile routes: me, onboarding flags, preferences, short-lived tokens, quota.
import type { AppContext } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { LIMIT_NAMES } from '../../core/plans.ts';
import type { AuthStore, User } from './store.ts';
import type { Credentials } from './credential-readers.ts';
import type { Tokens } from './tokens.ts';
import type { Preferences } from './schemas.ts';

export const meView = (u: User) => ({
  id: u._id, email: u.email, name: u.name ?? null, role: u.role, scmId: u.scmId ?? null, avatar: u.avatar ?? null,
  defaultOrgId: u.defaultOrgId, onboardingCompleted: Boolean(u.onboardingCompleted), tourCompleted: Boolean(u.tourCompleted),
});

export const DEFAULT_PREFERENCES: Preferences & Required<Pick<Preferences, 'notifications'>> = { theme: 'system', language: 'en', timezone: 'UTC', notifications: { email: true, inApp: true, digest: 'weekly' } };

export function createAccount(ctx: AppContext, store: AuthStore, creds: Credentials, tokens: Tokens) {
  async function update(userId: string, set: Partial<User>) {
    if (!(await store.updateUser(userId, set))) throw notFound('User');
    await creds.users.invalidate(userId);
  }

  return {
    async me(userId: string) {
      const user = await creds.users.get(userId);
      if (!user) throw notFound('User');
      return meView(user);
    },
    update,
    async preferences(userId: string): Promise<Preferences & Required<Pick<Preferences, 'notifications'>>> {
      const user = await creds.users.get(userId);
      return { ...DEFAULT_PREFERENCES, ...(user?.preferences ?? {}) };
    },
    async setPreferences(userId: string, prefs: Preferences): Promise<Preferences> {
      const current = await this.preferences(userId);
      const merged = { ...current, ...prefs, notifications: { ...current.notifications, ...(prefs.notifications ?? {}) } };
      await update(userId, { preferences: merged });
      return merged;
    },
    downloadToken(userId: string) {
      return { token: tokens.sign('download', userId), expiresAt: new Date(Date.now() + ctx.config.DOWNLOAD_TOKEN_TTL * 1000).toISOString() };
    },
    serviceToken() {
      return { token: tokens.sign('service', 'service'), expiresAt: new Date(Date.now() + ctx.config.ACCESS_TOKEN_TTL * 1000).toISOString() };
    },
    /**
     * The plan's limits and their usage, from the engine's table and the meters the counting
     * plugins define (core/limits.ts): `items` lists every limit; limits, usage and remaining
     * keep their first shape (usage and remaining name scans per day `scansToday`).
     */
    async quota(orgId: string) {
      const { plan, limits, used } = await ctx.limits.usage(orgId);
      const remaining = (limit: number | null, n: number) => (limit === null ? null : Math.max(0, limit - n));
      return {
        plan,
        limits,
        usage: { repositories: used.repositories, scansToday: used.scansPerDay, cloudAccounts: used.cloudAccounts },
        remaining: {
          repositories: remaining(limits.repositories, used.repositories),
          scansToday: remaining(limits.scansPerDay, used.scansPerDay),
          cloudAccounts: remaining(limits.cloudAccounts, used.cloudAccounts),
        },
        items: LIMIT_NAMES.map((limit) => ({ limit, allowed: limits[limit], used: used[limit], remaining: remaining(limits[limit], used[limit]) })),
      };
    },
  };
}
