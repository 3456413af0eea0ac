// The drift AI routes (docs/drift-fixes.md): analysis, computed fixes, their approval and the
// pull request that carries them. Fixes are computed from the drift record (declaredIn, commit,
// the diff's live values) and the declaring file read from the source host at the scanned
// commit; the AI provider, when the organization has a key, writes only words.
import { createHash } from 'node:crypto';
import type { AppContext } from '../../core/context.ts';
import { AppError, conflict } from '../../core/errors.ts';
import { acquireLock } from '../../core/redis.ts';
import type { DriftService } from '../drifts/service.ts';
import type { DriftView } from '../drifts/schemas.ts';
import type { ScmService } from '../scm/service.ts';
import type { AiProviderService } from '../ai-providers/service.ts';
import { changesOf, createAiClient, ruleAnalysis, type DriftFacts } from './analysis.ts';
import { acceptEdits, applyEdits, declaredValues, findResource, removeBlockEdit } from './hcl-patch.ts';
import { unifiedDiff } from './unified-diff.ts';
import type { DriftFix, FixStore } from './store.ts';
import { newId } from '../../core/crypto.ts';

interface Deps { drifts: DriftService; scm: ScmService; ai?: AiProviderService }

const facts = (d: DriftView): DriftFacts => ({
  resourceType: d.resourceType, resourceAddress: d.resourceAddress, severity: d.severity, changeType: d.changeType,
  ruleId: d.ruleId, changes: changesOf(d.diff),
});
const canonical = (v: unknown): unknown => (Array.isArray(v) ? v.map(canonical)
  : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v);
/** What an approval is bound to: the drift's diff and the commit it was found at. */
export const diffHashOf = (d: Pick<DriftView, 'diff' | 'commit'>) => createHash('sha256').update(JSON.stringify(canonical({ diff: d.diff, commit: d.commit }))).digest('hex');

/** `type` and `name` of an address (module path and instance key dropped). */
export function typeAndName(address: string): { type: string; name: string } | null {
  const m = /(?:^|\.)((?!module\b)[A-Za-z][\w-]*)\.([A-Za-z_][\w-]*)(\[[^\]]*\])?$/.exec(address.replace(/^data\./, ''));
  return m ? { type: m[1], name: m[2] } : null;
}
const short = (v: unknown) => { const s = JSON.stringify(v); return s === undefined ? 'null' : s.length > 200 ? `${s.slice(0, 197)}...` : s; };

export function createFixService(ctx: AppContext, store: FixStore, d: Deps) {
  const ai = createAiClient(ctx);

  async function aiSettings(orgId: string) {
    const s = d.ai ? await d.ai.settingsFor(orgId) : null;
    return s?.apiKey ? { ...s, apiKey: s.apiKey } : null;
  }

  /** The repository's installation and a token, or a 409 naming what is missing (never 401/403/5xx). */
  async function installation(orgId: string, repositoryName: string) {
    const found = await d.scm.installationFor(orgId, repositoryName);
    if (found) return found;
    const any = await d.scm.hasActiveInstallation(orgId);
    throw conflict(any
      ? `The organization's active source host app installation does not hold repository ${repositoryName}: add it to the installation on the host, then POST /api/auth/scm-app/sync-repos`
      : `No source host app installation is active for this organization: install the app (GET /api/auth/scm-app/install) so the service can read ${repositoryName}`);
  }

  async function readFile(token: string, fullName: string, file: string, ref: string): Promise<string> {
    const path = file.split('/').map(encodeURIComponent).join('/');
    const res = await d.scm.host.call('GET', `/repos/${d.scm.host.repoPath(fullName)}/contents/${path}?ref=${encodeURIComponent(ref)}`, token);
    if (res.status === 404) throw conflict(`${file} is not in ${fullName} at ${ref}: scan the repository again`);
    const json = d.scm.host.ok(res, 'GET /repos/{owner}/{repo}/contents/{path}');
    if (json?.encoding !== 'base64' || typeof json.content !== 'string') throw conflict(`${file} in ${fullName} is not a file the host returns with its content`);
    return Buffer.from(json.content, 'base64').toString('utf8');
  }

  async function compute(orgId: string, drift: DriftView, strategy: 'accept' | 'revert') {
    const f = facts(drift);
    const notes: string[] = [];
    let fixCode = '';
    let exact: string[] = [];
    let advice: { attribute: string; text: string }[] = [];
    let files: { path: string; content: string }[] = [];
    const where = drift.declaredIn ? `${drift.declaredIn.file}:${drift.declaredIn.line}` : 'its declaring file';

    if (strategy === 'revert') {
      exact = [];
      notes.push(drift.changeType === 'removed'
        ? `The code still declares ${drift.resourceAddress} (${where}). Re-apply it (terraform apply or tofu apply on ${drift.repositoryName}) to create the resource again.`
        : `The code already declares the intended values of ${drift.resourceAddress} (${where}); no file changes. Re-apply it (terraform apply or tofu apply on ${drift.repositoryName}) to put back: ${f.changes.map((c) => `${c.attribute} = ${short(c.before)} (live: ${short(c.after)})`).join('; ')}.`);
      return { f, fixCode, exact, advice, files, notes: notes.join(' ') };
    }

    if (!drift.declaredIn || !drift.commit) {
      throw conflict('The drift does not say which file and commit declare the resource (it was recorded before the engine reported them, or the resource is in a module from outside the repository): scan again, then generate the fix');
    }
    const tn = typeAndName(drift.resourceAddress);
    if (!tn) throw conflict(`The address ${drift.resourceAddress} does not name a resource block`);
    const inst = await installation(orgId, drift.repositoryName);
    const text = await readFile(inst.token, inst.fullName, drift.declaredIn.file, drift.commit);
    const open = findResource(text, tn.type, tn.name, drift.declaredIn.line);
    if (open < 0) throw conflict(`${drift.declaredIn.file} at ${drift.commit.slice(0, 12)} declares no resource "${tn.type}" "${tn.name}": scan again`);

    let after = text;
    if (drift.changeType === 'removed') {
      // Deleted in the cloud, accepted: the block goes from the code.
      const removal = removeBlockEdit(text, open);
      if (!removal) throw conflict(`The block of ${drift.resourceAddress} in ${drift.declaredIn.file} could not be read`);
      after = applyEdits(text, [removal]);
      exact = ['*'];
      notes.push(`The resource no longer exists: its block is removed from ${drift.declaredIn.file}. Remove it from the state as well (terraform state rm ${drift.resourceAddress}) if nothing else does.`);
    } else {
      const patch = acceptEdits(text, open, f.changes);
      after = applyEdits(text, patch.edits);
      exact = patch.exact;
      advice = patch.advice;
      if (exact.length) notes.push(`The patch writes the live values of ${exact.join(', ')} into ${drift.declaredIn.file}.`);
      if (advice.length) notes.push(`Not rewritten, change by hand: ${advice.map((a) => `${a.attribute}: ${a.text}`).join('; ')}.`);
      notes.push('After merging, a plan shows no change for these attributes.');
    }
    fixCode = unifiedDiff(drift.declaredIn.file, text, after);
    if (fixCode) files = [{ path: drift.declaredIn.file, content: after }];
    const current = declaredValues(text, open, f.changes).filter((v) => v.declared !== null);
    if (current.length && drift.changeType !== 'removed') notes.push(`Declared before: ${current.map((v) => `${v.attribute} = ${v.declared}`).join('; ')}.`);
    return { f, fixCode, exact, advice, files, notes: notes.join(' ') };
  }

  const view = (fix: DriftFix) => ({
    fixCode: fix.fixCode, explanation: fix.explanation, strategy: fix.strategy, exact: fix.exact, advice: fix.advice,
    file: fix.files[0]?.path ?? null, commit: fix.commit, generatedAt: fix.generatedAt.toISOString(), approved: Boolean(fix.approvedAt),
  });

  /** The drift's fix, checked against its current diff: 409 naming what is missing. */
  async function currentFix(orgId: string, drift: DriftView, need: 'approval' | 'fix') {
    const fix = await store.get(orgId, drift._id);
    if (!fix) throw conflict(`No fix has been generated for this drift: POST /api/drifts/${drift._id}/generate-fix first`);
    if (fix.diffHash !== diffHashOf(drift)) throw conflict('The fix was generated for an older diff of this drift (a scan found it changed since): generate the fix again');
    if (need === 'approval' && !fix.approvedAt) throw conflict(`The fix is not approved: POST /api/drifts/${drift._id}/approve-fix first`);
    return fix;
  }

  return {
    async reanalyze(orgId: string, driftId: string) {
      const drift = await d.drifts.get(orgId, driftId);
      const f = facts(drift);
      const settings = await aiSettings(orgId);
      // A provider failure throws before anything is written: the old analysis stays.
      const analysis = settings ? await ai.analyse(settings, f) : ruleAnalysis(f);
      return d.drifts.setAiAnalysis(orgId, driftId, analysis);
    },

    async generateFix(orgId: string, driftId: string, userId: string | null, requested?: 'accept' | 'revert') {
      const drift = await d.drifts.get(orgId, driftId);
      const strategy = requested ?? (drift.severity === 'critical' || drift.severity === 'high' ? 'revert' : 'accept');
      const c = await compute(orgId, drift, strategy);
      const settings = await aiSettings(orgId);
      const explanation = settings ? await ai.explain(settings, c.f, { strategy, fixCode: c.fixCode, notes: c.notes }) : c.notes;
      const diffHash = diffHashOf(drift);
      const previous = await store.get(orgId, driftId);
      // The same change again keeps its approval and pull request; another one starts over.
      const same = previous && previous.diffHash === diffHash && previous.fixCode === c.fixCode && previous.strategy === strategy;
      const fix: DriftFix = {
        _id: previous?._id ?? newId(), orgId, driftId, diffHash, strategy, fixCode: c.fixCode, explanation, exact: c.exact, advice: c.advice,
        files: c.files, commit: drift.commit, repositoryName: drift.repositoryName, generatedAt: new Date(), generatedBy: userId,
        approvedBy: same ? previous.approvedBy : null, approvedAt: same ? previous.approvedAt : null, pr: same ? previous.pr : null,
      };
      await store.put(fix);
      return view(fix);
    },

    async approveFix(orgId: string, driftId: string, userId: string) {
      const drift = await d.drifts.get(orgId, driftId);
      const fix = await currentFix(orgId, drift, 'fix');
      const at = fix.approvedAt ?? new Date();
      const by = fix.approvedBy ?? userId;
      if (!fix.approvedAt) await store.approve(orgId, driftId, by, at);
      return { approved: true as const, approvedBy: by, approvedAt: at.toISOString(), strategy: fix.strategy };
    },

    async createPr(orgId: string, driftId: string) {
      const drift = await d.drifts.get(orgId, driftId);
      const fix = await currentFix(orgId, drift, 'approval');
      if (fix.pr) return fix.pr;
      if (!fix.files.length) throw conflict('The approved fix changes no file (strategy revert, or only advice): re-apply the declared configuration, or generate a fix with strategy accept');
      const inst = await installation(orgId, drift.repositoryName);
      const release = await acquireLock(ctx.redis.main, `drift-fix-pr:${orgId}:${driftId}`, {
        ttlMs: 60_000, waitMs: 30_000,
        down: () => new AppError('store_unavailable'),
        busy: () => conflict('A pull request for this fix is being created; retry shortly'),
      });
      try {
        const again = await store.get(orgId, driftId);
        if (again?.pr) return again.pr;
        const pr = await openPullRequest(inst, fix, drift);
        await store.setPr(orgId, driftId, pr);
        return pr;
      } finally {
        await release();
      }
    },
    removeOrg: (orgId: string) => store.removeOrg(orgId),
    close: () => ai.close(),
  };

  /** Branch at the scanned commit, the files committed through the contents API, the pull request: each step finds what a previous attempt did. */
  async function openPullRequest(inst: { fullName: string; defaultBranch: string; token: string }, fix: DriftFix, drift: DriftView) {
    const host = d.scm.host;
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
}
export type FixService = ReturnType<typeof createFixService>;
