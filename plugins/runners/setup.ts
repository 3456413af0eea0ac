// Runner setup: the setup data (B), the install script and the agent package (both opened
// by the runner's token in the query, SPEC "Endpoints with no authentication": runner install
// script; auth 'runner-link', read by the credential reader in service.ts). A token that is not
// this runner's answers 401 whether or not the runner exists.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { AppError, notFound } from '../../core/errors.ts';
import type { Principal } from '../../core/guards/principal.ts';
import { ROOT } from '../../core/loader.ts';
import { renderSetupScript } from '../../runner-agent/src/setup-script.ts';
import { openToken } from './service.ts';
import type { Runner, RunnerStore } from './store.ts';

const AGENT_DIR = path.join(ROOT, 'runner-agent');
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
    return { setupUrl, packageUrl: `${base}/api/runners/agent/package.tgz?${q}`, installCommand: `curl -fsSL '${setupUrl}' | sudo bash` };
  };

  /** The runner whose link token the engine checked (a token of another runner never gets here). */
  async function linked(principal: Principal): Promise<Runner> {
    const runner = principal.runnerId && principal.orgId ? await store.get(principal.orgId, principal.runnerId) : null;
    if (!runner) throw badToken();
    return runner;
  }

  let packing: Promise<string> | undefined;
  /** `npm pack` of runner-agent/, once per content: cached under .data, rebuilt when a file changes. */
  async function agentPackage(): Promise<string> {
    const dir = path.join(process.env.DRIFT_DATA_DIR ?? path.join(ROOT, '.data'), 'runner-agent');
    const file = path.join(dir, `drift-runner-${packageHash()}.tgz`);
    if (existsSync(file)) return file;
    packing ??= (async () => {
      const tmp = path.join(dir, `tmp-${process.pid}-${Date.now()}`);
      mkdirSync(tmp, { recursive: true });
      try {
        const out = await new Promise<string>((resolve, reject) => execFile('npm', ['pack', '--silent', '--pack-destination', tmp, AGENT_DIR],
          { cwd: AGENT_DIR, timeout: 120_000 }, (err, stdout) => (err ? reject(err) : resolve(stdout.trim().split('\n').pop()!))));
        // Moved into place whole, so a concurrent reader (another process) never sees half a tarball.
        renameSync(path.join(tmp, out), file);
        // Older builds are of sources that no longer exist; a request in flight keeps its open file.
        for (const f of readdirSync(dir)) if (/^drift-runner-[0-9a-f]+\.tgz$/.test(f) && path.join(dir, f) !== file) rmSync(path.join(dir, f), { force: true });
        return file;
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    })().finally(() => { packing = undefined; });
    return packing;
  }

  return {
    async info(req: FastifyRequest, orgId: string, runnerId: string) {
      const runner = await store.get(orgId, runnerId);
      if (!runner) throw notFound('Runner');
      const base = apiUrl(req);
      const token = openToken(ctx, runner);
      const links = token ? urls(base, runner._id, token) : { setupUrl: null, packageUrl: null, installCommand: null };
      return { runnerId: runner._id, name: runner.name, labels: runner.labels, apiUrl: base, token, ...links };
    },
    async script(req: FastifyRequest, principal: Principal, token: string) {
      const runner = await linked(principal);
      const base = apiUrl(req);
      return renderSetupScript({ apiUrl: base, runnerId: runner._id, runnerName: runner.name, token, packageUrl: urls(base, runner._id, token).packageUrl });
    },
    async package(principal: Principal) {
      await linked(principal);
      return agentPackage();
    },
  };
}

/** A hash of the files `npm pack` would ship (package.json, bin/, src/), from names, sizes and mtimes. */
function packageHash(): string {
  const h = createHash('sha256');
  const walk = (rel: string) => {
    const full = path.join(AGENT_DIR, rel);
    const st = statSync(full);
    if (st.isDirectory()) {
      for (const name of readdirSync(full).sort()) if (name !== 'node_modules' && name !== 'test') walk(path.join(rel, name));
    } else {
      h.update(`${rel}\0${st.size}\0${st.mtimeMs}\0`);
    }
  };
  h.update(readFileSync(path.join(AGENT_DIR, 'package.json')));
  for (const part of ['bin', 'src']) if (existsSync(path.join(AGENT_DIR, part))) walk(part);
  return h.digest('hex').slice(0, 16);
}
