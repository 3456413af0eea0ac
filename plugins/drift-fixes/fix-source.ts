// The source host side of a fix: the repository's installation and token, the declaring file
// read at the scanned commit, and the pull request that carries an approved fix. Every failure
// the user can act on is a 409 naming what is missing (never 401/403/5xx).
import { conflict } from '../../core/errors.ts';
import type { DriftView } from '../drifts/schemas.ts';
import type { ScmService } from '../scm/service.ts';
import type { DriftFix } from './store.ts';

export interface Installation { fullName: string; defaultBranch: string; token: string }

export function createFixSource(scm: ScmService) {
  /** The repository's installation and a token, or a 409 naming what is missing (never 401/403/5xx). */
  async function installation(orgId: string, repositoryName: string) {
    const found = await scm.installationFor(orgId, repositoryName);
    if (found) return found;
    const any = await scm.hasActiveInstallation(orgId);
    throw conflict(any
      ? `The organization's active source host app installation does not hold repository ${repositoryName}: add it to the installation on the host, then POST /api/auth/scm-app/sync-repos`
      : `No source host app installation is active for this organization: install the app (GET /api/auth/scm-app/install) so the service can read ${repositoryName}`);
  }

  async function readFile(token: string, fullName: string, file: string, ref: string): Promise<string> {
    const path = file.split('/').map(encodeURIComponent).join('/');
    const res = await scm.host.call('GET', `/repos/${scm.host.repoPath(fullName)}/contents/${path}?ref=${encodeURIComponent(ref)}`, token);
    if (res.status === 404) throw conflict(`${file} is not in ${fullName} at ${ref}: scan the repository again`);
    const json = scm.host.ok(res, 'GET /repos/{owner}/{repo}/contents/{path}');
    if (json?.encoding !== 'base64' || typeof json.content !== 'string') throw conflict(`${file} in ${fullName} is not a file the host returns with its content`);
    return Buffer.from(json.content, 'base64').toString('utf8');
  }

  /** Branch at the scanned commit, the files committed through the contents API, the pull request: each step finds what a previous attempt did. */
  async function openPullRequest(inst: Installation, fix: DriftFix, drift: DriftView) {
    const host = scm.host;
    const repo = host.repoPath(inst.fullName);
    const call = (method: string, path: string, body?: object) => host.call(method, `/repos/${repo}${path}`, inst.token, body);
    const branch = `drift-fix/${drift._id.slice(-8)}-${fix.diffHash.slice(0, 8)}`;
    const owner = inst.fullName.split('/')[0];
    const existing = async () => {
      const list = host.ok(await call('GET', `/pulls?state=all&head=${encodeURIComponent(`${owner}:${branch}`)}`), 'GET /repos/{owner}/{repo}/pulls');
      const p = Array.isArray(list) ? list[0] : undefined;
      return p ? { prUrl: String(p.html_url), prNumber: Number(p.number), branch } : null;
    };
    const found = await existing();
    if (found) return found;

    const ref = await call('GET', `/git/ref/heads/${branch.split('/').map(encodeURIComponent).join('/')}`);
    if (ref.status === 404) {
      const made = await call('POST', '/git/refs', { ref: `refs/heads/${branch}`, sha: fix.commit });
      if (made.status !== 422) host.ok(made, 'POST /repos/{owner}/{repo}/git/refs');
    } else host.ok(ref, 'GET /repos/{owner}/{repo}/git/ref/heads/{branch}');

    for (const file of fix.files) {
      const path = file.path.split('/').map(encodeURIComponent).join('/');
      const cur = await call('GET', `/contents/${path}?ref=${encodeURIComponent(branch)}`);
      const sha = cur.status === 200 ? cur.json?.sha : undefined;
      if (cur.status === 200 && typeof cur.json?.content === 'string' && Buffer.from(cur.json.content, 'base64').toString('utf8') === file.content) continue;
      if (cur.status !== 200 && cur.status !== 404) host.ok(cur, 'GET /repos/{owner}/{repo}/contents/{path}');
      host.ok(await call('PUT', `/contents/${path}`, {
        message: `Fix drift of ${drift.resourceAddress} (${fix.strategy})`, content: Buffer.from(file.content).toString('base64'), branch, ...(sha ? { sha } : {}),
      }), 'PUT /repos/{owner}/{repo}/contents/{path}');
    }
    const opened = await call('POST', '/pulls', {
      title: `Fix drift: ${drift.resourceAddress}`, head: branch, base: inst.defaultBranch,
      body: `${fix.explanation}\n\nDrift ${drift._id} (${drift.severity}) found at ${drift.commit ?? 'an unknown commit'}.\n\n\`\`\`diff\n${fix.fixCode}\`\`\``,
    });
    if (opened.status === 422) {
      const after = await existing();
      if (after) return after;
    }
    const pr = host.ok(opened, 'POST /repos/{owner}/{repo}/pulls');
    return { prUrl: String(pr.html_url), prNumber: Number(pr.number), branch };
  }

  return { installation, readFile, openPullRequest };
}
export type FixSource = ReturnType<typeof createFixSource>;
