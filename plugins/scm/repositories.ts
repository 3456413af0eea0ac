// Host integration of an organization (docs/scm.md "App installations", "Repositories"): its
// app installations, the repositories they and the user's linked account reach, and
// installation tokens for clones and pull requests. Installation tokens are cached sealed in
// Redis until five minutes before they expire; no token is logged, audited or stored on a scan.
import type { AppContext } from '../../core/context.ts';
import { conflict, notFound } from '../../core/errors.ts';
import { pageOf } from '../../core/schemas.ts';
import type { Host, HostRepo } from './host.ts';
import type { ScmAccount, ScmInstallation, ScmStore, StoredRepo } from './store.ts';

/** An installation token is used until this long before it expires, then minted again. */
const TOKEN_MARGIN_MS = 5 * 60_000;
const NOTHING_LINKED = 'No source host account is linked and no app installation is active: sign in through /api/auth/scm or install the app through /api/auth/scm-app/install';

export const repoView = (r: HostRepo | StoredRepo): StoredRepo => ({
  id: r.id, name: r.name, full_name: r.full_name, owner: { login: r.owner.login }, private: Boolean(r.private), default_branch: r.default_branch,
});

const installationView = (i: ScmInstallation) => ({
  installationId: i.installationId, accountLogin: i.accountLogin, accountType: i.accountType, active: i.active,
  repositoryCount: i.repositories.length, syncedAt: i.syncedAt?.toISOString() ?? null, createdAt: i.createdAt.toISOString(),
});

/** Installation tokens: from the cache while they have more than five minutes left. */
function createInstallationTokens(ctx: AppContext, host: Host) {
  const redis = ctx.redis.main;
  const key = (installationId: string) => `scm-installation-token:${installationId}`;
  return {
    async get(installationId: string): Promise<string> {
      const cached = await redis.get(key(installationId));
      if (cached) {
        const { token, expiresAt } = JSON.parse(ctx.sealer.open(cached)) as { token: string; expiresAt: number };
        if (expiresAt - Date.now() > TOKEN_MARGIN_MS) return token;
      }
      const minted = await host.mintInstallationToken(installationId);
      const keep = minted.expiresAt.getTime() - Date.now() - TOKEN_MARGIN_MS;
      if (keep > 1000) await redis.set(key(installationId), ctx.sealer.seal(JSON.stringify({ token: minted.token, expiresAt: minted.expiresAt.getTime() })), 'PX', keep);
      return minted.token;
    },
    forget: (installationId: string) => redis.del(key(installationId)),
  };
}

export function createRepositories(ctx: AppContext, store: ScmStore, host: Host) {
  const tokens = createInstallationTokens(ctx, host);

  async function accountToken(userId: string): Promise<{ account: ScmAccount; token: string } | null> {
    const account = await store.activeAccount(userId);
    return account ? { account, token: ctx.sealer.open(account.token) } : null;
  }

  async function sync(orgId: string, inst: ScmInstallation) {
    const token = await tokens.get(inst.installationId);
    const repos = (await host.installationRepos(token)).map(repoView);
    const at = new Date();
    await store.setRepositories(orgId, inst.installationId, repos, at);
    return { installationId: inst.installationId, repositoryCount: repos.length, syncedAt: at.toISOString() };
  }

  /** The repository in the organization's active installation (full name, any case); null when not there. */
  async function installedRepo(orgId: string, fullName: string): Promise<{ inst: ScmInstallation; repo: StoredRepo } | null> {
    const inst = await store.activeInstallation(orgId);
    const repo = inst?.repositories.find((r) => r.full_name.toLowerCase() === fullName.toLowerCase());
    return inst && repo ? { inst, repo } : null;
  }

  return {
    sync,
    listInstallations: async (orgId: string) => (await store.installations(orgId)).map(installationView),
    async setActiveInstallation(orgId: string, installationId: string) {
      if (!(await store.installation(orgId, installationId))) throw notFound('Installation');
      await store.setActiveInstallation(orgId, installationId);
      return installationView((await store.installation(orgId, installationId))!);
    },
    async syncRepos(orgId: string, installationId: string | undefined) {
      const inst = installationId ? await store.installation(orgId, installationId) : await store.activeInstallation(orgId);
      if (!inst) {
        if (installationId) throw notFound('Installation');
        throw conflict('No app installation is active for this organization: install the app through /api/auth/scm-app/install');
      }
      return sync(orgId, inst);
    },
    async removeInstallation(orgId: string, installationId: string) {
      if (!(await store.removeInstallation(orgId, installationId))) throw notFound('Installation');
      await tokens.forget(installationId);
      return { message: 'Installation removed' };
    },

    async repositories(userId: string, orgId: string, page: number, limit: number) {
      const account = await accountToken(userId);
      let inst = await store.activeInstallation(orgId);
      if (!account && !inst) throw conflict(NOTHING_LINKED);
      if (inst && !inst.syncedAt) { await sync(orgId, inst); inst = await store.activeInstallation(orgId); }
      const byId = new Map<number, StoredRepo>();
      for (const r of inst?.repositories ?? []) byId.set(r.id, r);
      if (account) for (const r of await host.userRepos(account.token)) byId.set(r.id, repoView(r));
      const all = [...byId.values()].sort((a, b) => a.full_name.localeCompare(b.full_name) || a.id - b.id);
      return pageOf(all.slice((page - 1) * limit, page * limit), { page, limit }, all.length);
    },
    async branches(userId: string, orgId: string, owner: string, repo: string) {
      const fullName = `${owner}/${repo}`;
      const installed = await installedRepo(orgId, fullName);
      if (installed) return host.branches(await tokens.get(installed.inst.installationId), installed.repo.full_name);
      const account = await accountToken(userId);
      if (!account) {
        if (await store.activeInstallation(orgId)) throw notFound('Repository');
        throw conflict(NOTHING_LINKED);
      }
      return host.branches(account.token, fullName);
    },

    /**
     * The clone URL of a repository config's repository with a fresh installation token in it,
     * when the repository belongs to the organization's active installation and its URL is on
     * the source host (or unset); null otherwise. Built when a scan is handed to the executor
     * or a runner, never stored.
     */
    async cloneUrl(orgId: string, repositoryName: string, repositoryUrl: string | undefined): Promise<string | null> {
      if (!host.appConfigured()) return null;
      const installed = await installedRepo(orgId, repositoryName);
      if (!installed) return null;
      const web = new URL(host.web);
      let url: URL;
      if (repositoryUrl?.trim()) {
        try { url = new URL(repositoryUrl.trim()); } catch { return null; }
        if (url.host !== web.host || url.protocol !== web.protocol || url.username || url.password) return null;
      } else {
        url = new URL(`${host.web}/${installed.repo.full_name}.git`);
      }
      url.username = 'x-access-token';
      url.password = await tokens.get(installed.inst.installationId);
      return url.toString();
    },
    /** For pull requests: the active installation holding this repository, and a token for it; null when none does. */
    async installationFor(orgId: string, repositoryName: string): Promise<{ installationId: string; fullName: string; defaultBranch: string; token: string } | null> {
      const installed = await installedRepo(orgId, repositoryName);
      if (!installed) return null;
      return { installationId: installed.inst.installationId, fullName: installed.repo.full_name, defaultBranch: installed.repo.default_branch, token: await tokens.get(installed.inst.installationId) };
    },
    hasActiveInstallation: async (orgId: string) => Boolean(await store.activeInstallation(orgId)),
  };
}
