// Source host integration (docs/scm.md), composed from its parts: sign-in and linked
// accounts (signin.ts, accounts.ts), app installations (app-install.ts) and the
// repositories and installation tokens of an organization (repositories.ts).
//
// Single-use values live in Redis under the hash of what the browser carries, spent with GETDEL:
// - sign-in, add-account and install states (states.ts): 10 minutes, bound to their flow; the
//   add-account and install states also to the browser and session that started them
//   (core/browser-binding.ts), and the install to its organization (app-install.ts);
// - the sign-in's exchange code: 60 seconds, turned into a session by POST /scm/exchange, so
//   the JWT never travels in a URL.
// Tokens are sealed at rest (ctx.sealer). No token is logged, audited or stored on a scan.
import type { AppContext } from '../../core/context.ts';
import type { AuthService } from '../auth/service.ts';
import { createHost } from './host.ts';
import { createStates } from './states.ts';
import { createAppInstall } from './app-install.ts';
import { createLinkedAccounts } from './accounts.ts';
import { createSignIn } from './signin.ts';
import { createRepositories } from './repositories.ts';
import type { ScmStore } from './store.ts';

export { STATE_TTL_SECONDS } from './states.ts';
export { EXCHANGE_TTL_SECONDS, SCOPES, validCliRedirect, type CallbackOutcome } from './signin.ts';

export function createScmService(ctx: AppContext, store: ScmStore, auth: AuthService) {
  const host = createHost(ctx);
  const states = createStates(ctx.redis.main);
  const accounts = createLinkedAccounts(ctx, store, host, auth);
  const signIn = createSignIn(ctx, { host, states, accounts, auth });
  const repos = createRepositories(ctx, store, host);
  const appInstall = createAppInstall(ctx, { store, host, auth, states, sync: repos.sync });

  return {
    host,
    // sign-in
    start: signIn.start,
    startAddAccount: signIn.startAddAccount,
    callback: signIn.callback,
    exchange: signIn.exchange,
    // linked accounts
    listAccounts: accounts.list,
    setActiveAccount: accounts.setActive,
    unlink: accounts.unlink,
    // app installations
    installUrl: appInstall.installUrl,
    appCallback: appInstall.appCallback,
    listInstallations: repos.listInstallations,
    setActiveInstallation: repos.setActiveInstallation,
    syncRepos: repos.syncRepos,
    removeInstallation: repos.removeInstallation,
    // repositories
    repositories: repos.repositories,
    branches: repos.branches,
    // for other plugins
    cloneUrl: repos.cloneUrl,
    installationFor: repos.installationFor,
    hasActiveInstallation: repos.hasActiveInstallation,
    removeOrg: (orgId: string) => store.removeOrg(orgId),
    close: () => host.close(),
  };
}
export type ScmService = ReturnType<typeof createScmService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { scm: ScmService }
}
