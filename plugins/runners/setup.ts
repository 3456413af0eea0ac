// Runner setup: the setup data (B), the install script and the agent package (both opened
// by the runner's token in the query, SPEC "Endpoints with no authentication": runner install
// script; auth 'runner-link', read by the credential reader in service.ts). A token that is not
// this runner's answers 401 whether or not the runner exists.
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import type { Principal } from '../../core/guards/principal.ts';
import { ROOT } from '../../core/loader.ts';
import { createPackageCache, runtimeLock, runtimeTarball } from './agent-package.ts';
import { renderSetupScript } from '../../runner-agent/src/setup-script.ts';
import { openToken } from './service.ts';
import type { Runner, RunnerStore } from './store.ts';

const badToken = () => new AppError('invalid_token', { message: 'Invalid runner token' });

export function createSetup(ctx: AppContext, store: RunnerStore) {
  /**
   * The API's address as runners should use it: PUBLIC_URL when the operator set one, else the
   * address this request reached (the script was fetched from it, so it is reachable).
   */
  const apiUrl = (req: FastifyRequest) => ctx.config.PUBLIC_URL ? ctx.config.publicUrl : `${req.protocol}://${req.host}`;

  const urls = (base: string, runnerId: string, token: string) => {
    const q = `token=${encodeURIComponent(token)}`;
    const setupUrl = `${base}/api/runners/${runnerId}/setup?${q}`;
    return {
      setupUrl, packageUrl: `${base}/api/runners/agent/package.tgz?${q}`, runtimeUrl: `${base}/api/runners/agent/runtime.tgz?${q}`,
      installCommand: `curl -fsSL '${setupUrl}' | sudo bash`,
    };
  };

  /** The runner whose link token the engine checked (a token of another runner never gets here). */
  async function linked(principal: Principal): Promise<Runner> {
    const runner = principal.runnerId && principal.orgId ? await store.get(principal.orgId, principal.runnerId) : null;
    if (!runner) throw badToken();
    return runner;
  }

  // The one-file agent, built once per content (esbuild), cached under .data with its SHA-256.
  const packages = createPackageCache(path.join(process.env.DRIFT_DATA_DIR ?? path.join(ROOT, '.data'), 'runner-agent'));

  return {
    async info(req: FastifyRequest, orgId: string, runnerId: string) {
      const runner = await store.get(orgId, runnerId);
      if (!runner) throw notFound('Runner');
      const base = apiUrl(req);
      const token = openToken(ctx, runner);
      const { setupUrl, packageUrl, installCommand } = token ? urls(base, runner._id, token) : { setupUrl: null, packageUrl: null, installCommand: null };
      const links = { setupUrl, packageUrl, installCommand };
      return { runnerId: runner._id, name: runner.name, labels: runner.labels, apiUrl: base, token, ...links };
    },
    async script(req: FastifyRequest, principal: Principal, token: string) {
      const runner = await linked(principal);
      const base = apiUrl(req);
      const pkg = await packages.get();
      const lock = runtimeLock();
      const { packageUrl, runtimeUrl } = urls(base, runner._id, token);
      return renderSetupScript({
        apiUrl: base, runnerId: runner._id, runnerName: runner.name, token, packageUrl, packageSha256: pkg.sha256, packageVersion: pkg.version,
        runtimeUrl, nodeVersion: lock.version, runtimes: lock.platforms,
      });
    },
    async package(principal: Principal) {
      await linked(principal);
      return (await packages.get()).file;
    },
    /** The official Node binary's registry tarball for a platform the lock pins (400 otherwise). */
    async runtime(principal: Principal, platform: string) {
      await linked(principal);
      const platforms = Object.keys(runtimeLock().platforms);
      if (!platforms.includes(platform)) throw badRequest(`No runtime for platform ${platform}; supported platforms: ${platforms.join(', ')}`);
      return (await runtimeTarball(platform)).file;
    },
  };
}
