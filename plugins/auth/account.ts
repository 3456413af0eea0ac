// Profile routes: me, onboarding flags, preferences, short-lived tokens, quota.
import type { AppContext } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import { PLAN_LIMITS } from '../../core/plans.ts';
import type { AuthStore, User } from './store.ts';
import type { Credentials } from './credentials.ts';
import type { Tokens } from './tokens.ts';
import type { Meter } from './service.ts';
import type { Preferences } from './schemas.ts';

export const meView = (u: User) => ({
  id: u._id, email: u.email, name: u.name ?? null, role: u.role, scmId: u.scmId ?? null, avatar: u.avatar ?? null,
  defaultOrgId: u.defaultOrgId, onboardingCompleted: Boolean(u.onboardingCompleted), tourCompleted: Boolean(u.tourCompleted),
});

export const DEFAULT_PREFERENCES: Preferences & Required<Pick<Preferences, 'notifications'>> = { theme: 'system', language: 'en', timezone: 'UTC', notifications: { email: true, inApp: true, digest: 'weekly' } };

export function createAccount(ctx: AppContext, store: AuthStore, creds: Credentials, tokens: Tokens) {
  // Usage meters other plugins register through this plugin's service (repositories, scans today, cloud accounts).
  const meters = new Map<string, Meter>();

  async function update(userId: string, set: Partial<User>) {
    if (!(await store.updateUser(userId, set))) throw notFound('User');
    await creds.users.invalidate(userId);
  }

  return {
    registerMeter(name: string, meter: Meter): void { meters.set(name, meter); },
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
    async quota(orgId: string) {
      const org = await ctx.tenancy.org(orgId);
      if (!org) throw notFound('Organization');
      const limits = PLAN_LIMITS[org.plan];
      const measure = async (name: string) => (meters.has(name) ? meters.get(name)!(orgId) : 0);
      const [repositories, scansToday, cloudAccounts] = await Promise.all([measure('repositories'), measure('scansToday'), measure('cloudAccounts')]);
      const remaining = (limit: number | null, used: number) => (limit === null ? null : Math.max(0, limit - used));
      return {
        plan: org.plan,
        limits,
        usage: { repositories, scansToday, cloudAccounts },
        remaining: { repositories: remaining(limits.repositories, repositories), scansToday: remaining(limits.scansPerDay, scansToday), cloudAccounts: remaining(limits.cloudAccounts, cloudAccounts) },
      };
    },
  };
}
