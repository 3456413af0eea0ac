// Computing a fix from the drift record: `revert` changes no file (re-apply the code); `accept`
// reads the declaring file at the scanned commit and writes the live values into the resource
// block (or removes the block of a resource deleted in the cloud), as a unified diff with notes.
import { conflict } from '../../core/errors.ts';
import type { DriftView } from '../drifts/schemas.ts';
import { changesOf, type DriftFacts } from './analysis.ts';
import type { FixSource } from './fix-source.ts';
import { acceptEdits, applyEdits, declaredValues, findResource, removeBlockEdit } from './hcl-patch.ts';
import { unifiedDiff } from './unified-diff.ts';

export const facts = (d: DriftView): DriftFacts => ({
  resourceType: d.resourceType, resourceAddress: d.resourceAddress, severity: d.severity, changeType: d.changeType,
  ruleId: d.ruleId, changes: changesOf(d.diff),
});

/** `type` and `name` of an address (module path and instance key dropped). */
export function typeAndName(address: string): { type: string; name: string } | null {
  const m = /(?:^|\.)((?!module\b)[A-Za-z][\w-]*)\.([A-Za-z_][\w-]*)(\[[^\]]*\])?$/.exec(address.replace(/^data\./, ''));
  return m ? { type: m[1], name: m[2] } : null;
}
const short = (v: unknown) => { const s = JSON.stringify(v); return s === undefined ? 'null' : s.length > 200 ? `${s.slice(0, 197)}...` : s; };

export interface ComputedFix {
  f: DriftFacts;
  fixCode: string;
  exact: string[];
  advice: { attribute: string; text: string }[];
  files: { path: string; content: string }[];
  notes: string;
}

/** Revert: the code already says what the resource should be; no file changes. */
function revert(drift: DriftView, f: DriftFacts, where: string): ComputedFix {
  const note = drift.changeType === 'removed'
    ? `The code still declares ${drift.resourceAddress} (${where}). Re-apply it (terraform apply or tofu apply on ${drift.repositoryName}) to create the resource again.`
    : `The code already declares the intended values of ${drift.resourceAddress} (${where}); no file changes. Re-apply it (terraform apply or tofu apply on ${drift.repositoryName}) to put back: ${f.changes.map((c) => `${c.attribute} = ${short(c.before)} (live: ${short(c.after)})`).join('; ')}.`;
  return { f, fixCode: '', exact: [], advice: [], files: [], notes: note };
}

export function createFixCompute(source: Pick<FixSource, 'installation' | 'readFile'>) {
  /** Accept: the declaring file at the scanned commit, rewritten to say what the cloud holds. */
  async function accept(orgId: string, drift: DriftView, f: DriftFacts): Promise<ComputedFix> {
    if (!drift.declaredIn || !drift.commit) {
      throw conflict('The drift does not say which file and commit declare the resource (it was recorded before the engine reported them, or the resource is in a module from outside the repository): scan again, then generate the fix');
    }
    const tn = typeAndName(drift.resourceAddress);
    if (!tn) throw conflict(`The address ${drift.resourceAddress} does not name a resource block`);
    const inst = await source.installation(orgId, drift.repositoryName);
    const text = await source.readFile(inst.token, inst.fullName, drift.declaredIn.file, drift.commit);
    const open = findResource(text, tn.type, tn.name, drift.declaredIn.line);
    if (open < 0) throw conflict(`${drift.declaredIn.file} at ${drift.commit.slice(0, 12)} declares no resource "${tn.type}" "${tn.name}": scan again`);

    const notes: string[] = [];
    let after = text;
    let exact: string[] = [];
    let advice: ComputedFix['advice'] = [];
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
    const fixCode = unifiedDiff(drift.declaredIn.file, text, after);
    const files = fixCode ? [{ path: drift.declaredIn.file, content: after }] : [];
    const current = declaredValues(text, open, f.changes).filter((v) => v.declared !== null);
    if (current.length && drift.changeType !== 'removed') notes.push(`Declared before: ${current.map((v) => `${v.attribute} = ${v.declared}`).join('; ')}.`);
    return { f, fixCode, exact, advice, files, notes: notes.join(' ') };
  }

  return async function compute(orgId: string, drift: DriftView, strategy: 'accept' | 'revert'): Promise<ComputedFix> {
    const f = facts(drift);
    const where = drift.declaredIn ? `${drift.declaredIn.file}:${drift.declaredIn.line}` : 'its declaring file';
    return strategy === 'revert' ? revert(drift, f, where) : accept(orgId, drift, f);
  };
}
