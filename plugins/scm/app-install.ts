// App installations (docs/scm.md "App installations"): the install URL and the app's callback.
//
// An installation id in the callback's URL is a claim: ids are sequential, and anyone can
// type one. It is proven with the installing user's own host token: the app asks for user
// authorization during installation, so the host sends a `code` with `installation_id`; the
// code becomes a user access token of the app, and GET /user/installations must list the id
// (the host lists only installations that user can reach). The callback must also come from
// the browser and the user that asked for the install URL (core/browser-binding.ts). An
// installation belongs to one organization at a time (a unique index decides races).
import type { AppContext } from '../../core/context.ts';
import { proveBinding, type CallbackEvidence } from '../../core/browser-binding.ts';
import { AppError } from '../../core/errors.ts';
import { isDuplicateKey } from '../../core/db.ts';
import { newId } from '../../core/crypto.ts';
import type { AuthService } from '../auth/service.ts';
import type { Host, HostInstallation } from './host.ts';
import type { States } from './states.ts';
import type { ScmInstallation, ScmStore } from './store.ts';
import type { CallbackOutcome } from './signin.ts';
import type { RouteInput } from '../../core/manifest.ts';

type Resumed = RouteInput['resumed'];

export const appNotConfigured = () => new AppError('scm.app_not_configured', { message: 'Source host app is not configured' });

export function createAppInstall(ctx: AppContext, deps: {
  store: ScmStore; host: Host; auth: AuthService; states: States;
  sync: (orgId: string, inst: ScmInstallation) => Promise<unknown>;
}) {
  const { store, host, auth, states } = deps;
  const frontend = ctx.config.FRONTEND_URL.replace(/\/+$/, '');
  const callbackUrl = `${ctx.config.publicUrl}/api/auth/scm-app/callback`;
  const back = (params: Record<string, string>) => ({ redirect: `${frontend}/settings/scm?${new URLSearchParams(params)}` });

  /** Records the installation for the organization; false when another organization holds it. */
  async function record(orgId: string, userId: string, found: HostInstallation): Promise<boolean> {
    const installationId = String(found.id);
    const fields = { accountLogin: found.account?.login ?? '', accountType: found.account?.type ?? null, installedBy: userId };
    try {
      await store.insertInstallation({ _id: newId(), orgId, installationId, ...fields, active: false, repositories: [], syncedAt: null, createdAt: new Date() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      if ((await store.installationHolder(installationId)) !== orgId) return false;
      await store.refreshInstallation(orgId, installationId, fields);
    }
    return true;
  }

  return {
    callbackUrl,
    /** The caller passed the manifest's guards (user session, integrations:write in orgId). */
    async installUrl(userId: string, sessionId: string | null, orgId: string, nonceHash: string) {
      if (!host.appConfigured() || !host.appClient()) throw appNotConfigured();
      const state = await states.create({ flow: 'install', userId, sessionId, nonceHash, orgId });
      return { installUrl: host.installUrl(state) };
    },

    /**
     * Where the host sends the browser after an installation: always a redirect, to the settings
     * page. `resumed`: the engine's answer to the route's `resumes` rule (manifests/scm.ts).
     */
    async appCallback(query: { installation_id?: string; setup_action?: string; state?: string; code?: string }, evidence: CallbackEvidence, resumed: Resumed): Promise<CallbackOutcome> {
      const client = host.appClient();
      if (!host.appConfigured() || !client) throw appNotConfigured();
      const state = await states.spend(query.state);
      if (!state || state.flow !== 'install') return back({ error: 'invalid_state' });
      const unbound = await proveBinding(state, evidence, auth.liveSessions);
      if (unbound) return back({ error: unbound });
      // Still allowed to connect integrations in that organization (removed or demoted since the start: no).
      if (!(await resumed(state.orgId, state.userId))) return back({ error: 'permission_denied' });
      const installationId = query.installation_id;
      if (!installationId || !/^\d{1,20}$/.test(installationId)) return back({ error: 'missing_installation' });
      // Without the user's code nothing proves the installation is theirs: the app must request
      // user authorization (OAuth) during installation.
      if (!query.code) return back({ error: 'missing_code' });

      let found: HostInstallation | null;
      try {
        found = await host.installation(installationId);
        if (!found) return back({ error: 'unknown_installation' });
        const user = await host.exchangeCode(query.code, callbackUrl, client);
        if (!user) return back({ error: 'code_refused' });
        if (!(await host.userSeesInstallation(user.token, installationId))) return back({ error: 'installation_not_visible' });
      } catch (err) {
        if ((err as AppError).code !== 'scm.provider_failed') throw err;
        ctx.log.warn({ err: (err as Error).message }, 'scm: install callback could not reach the host');
        return back({ error: 'provider_error' });
      }

      if (!(await record(state.orgId, state.userId, found))) return back({ error: 'installation_in_use' });
      if (!(await store.activeInstallation(state.orgId))) await store.setActiveInstallation(state.orgId, installationId);
      const inst = await store.installation(state.orgId, installationId);
      // The repositories now, so the list shows them at once; a failure leaves them to sync-repos.
      if (inst) await deps.sync(state.orgId, inst).catch((err) => ctx.log.warn({ orgId: state.orgId, installationId, err: (err as Error).message }, 'scm: repository sync after install failed'));
      return {
        ...back({ installation: installationId }),
        audit: {
          action: 'scm.installation_added', orgId: state.orgId, actor: { userId: state.userId, kind: 'user' }, resourceType: 'scm_installation', resourceId: installationId,
          details: { accountLogin: found.account?.login ?? '', setupAction: query.setup_action ?? null },
        },
      };
    },
  };
}
