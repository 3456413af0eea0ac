// Issue #10, point 2, through the built-in executor as the issue found it: a repository whose
// terraform.tfstate is a symbolic link to a file of the service host, and configs stored before
// the API checked their paths (an absolute statePath, iacPaths ../../etc). Each scan fails with a
// message naming the path; nothing of the host file reaches the scan. Real git repositories,
// cloned over file:// (EXECUTOR_LOCAL_SOURCES is on in tests).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { world } from '../../fixtures/world.ts';
import { git } from '../../engine/world.ts';

const MARKER = `HOST-SECRET-${process.pid}`;
const dirs: string[] = [];
t.teardown(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = (prefix: string) => { const d = mkdtempSync(join(tmpdir(), prefix)); dirs.push(d); return d; };
const host = tmp('drift-host-');
const secret = join(host, 'shadow');
writeFileSync(secret, `root:$6$${MARKER}:19000:0:99999:7:::\n`);

/** A git repository with these files (text, or a symbolic link to a target); its file:// URL. */
function repo(files: Record<string, string | { link: string }>): string {
  const dir = tmp('drift-exec-repo-');
  for (const [f, v] of Object.entries(files)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    if (typeof v === 'string') writeFileSync(join(dir, f), v);
    else symlinkSync(v.link, join(dir, f));
  }
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'x');
  return `file://${dir}`;
}
const SG_TF = 'resource "aws_security_group" "a" {\n  name = "a"\n}\n';

t.test('scans that would read the host fail, naming the path, quoting nothing', async (t) => {
  const w = await world(t);
  const executor = w.services.executor!;
  const creds = await w.api('POST', '/api/auth/cloud-a-credentials', { accessKeyId: 'AKIAEXAMPLEEXAMPLE00', secretAccessKey: 'secret-secret-secret', region: 'us-east-1' });
  t.equal(creds.status, 200, 'credentials stored (the engine checks them before reading the repository)');

  async function failedScan(name: string, repositoryUrl: string, stored: Record<string, unknown> = {}) {
    const id = await w.config(name, { repositoryUrl });
    // What a config stored before the API checked its paths may hold.
    if (Object.keys(stored).length) await w.ctx.db.db.collection('repo_configs').updateOne({ _id: id as never }, { $set: stored });
    const scan = await w.scans.trigger(w.owner.orgId, id, null);
    t.equal(await executor.execute(w.owner.orgId, scan._id), 'failed', `${name}: the scan fails`);
    const after = (await w.api('GET', `/api/scans/${scan._id}`)).body;
    t.notOk(JSON.stringify(after).includes(MARKER), `${name}: nothing of the host file in the scan`);
    return after.data as { status: string; error: string };
  }

  t.match(await failedScan('acme/link', repo({ 'main.tf': SG_TF, 'terraform.tfstate': { link: secret } })),
    { status: 'failed', error: /^terraform\.tfstate \(no backend block, so the default local state\) is, or passes through, a symbolic link that leads outside the repository/ },
    'a terraform.tfstate linked to a host file');
  const clean = repo({ 'main.tf': SG_TF, 'terraform.tfstate': JSON.stringify({ version: 4, resources: [] }) });
  t.match(await failedScan('acme/abs', clean, { statePath: secret }),
    { error: /^The repository config's statePath ".*shadow" must be relative to the repository, not an absolute path/ }, 'a stored absolute statePath');
  t.match(await failedScan('acme/dots', clean, { statePath: `../../../../../../../..${secret}` }),
    { error: /^The repository config's statePath .* must not lead outside the repository/ }, 'a stored statePath leaving with ".."');
  t.match(await failedScan('acme/etc', clean, { iacPaths: ['../../etc'] }),
    { error: /^IaC path "\.\.\/\.\.\/etc" must not lead outside the repository/ }, 'stored iacPaths ../../etc');
  t.match(await failedScan('acme/dir', repo({ 'main.tf': SG_TF, 'infra': { link: host } }), { iacPaths: ['infra'] }),
    { error: /^IaC path "infra" is, or passes through, a symbolic link that leads outside/ }, 'an iacPath that is a linked folder outside');
  t.match(await failedScan('acme/text', repo({ 'main.tf': SG_TF, 'terraform.tfstate': `root:$6$${MARKER}:19000\n` })),
    { error: /^The state at terraform\.tfstate \(no backend block, so the default local state\) is not valid JSON \(an unexpected character\)$/ },
    'a state in the repository that is not JSON: its kind, not its bytes');
});
