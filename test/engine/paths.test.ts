// Issue #10, point 2: the engine reads only files inside the checkout. A config path (iacPaths,
// statePath) that is absolute or leaves with `..`, and a symbolic link in the repository (a
// file or a folder) leading out of it, are refused with a message naming the path; a file that
// does not parse is described by kind and place, never quoted. Real files in temporary folders,
// real git clones (git keeps symbolic links); nothing here reaches the cloud.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { detectDrift, ScanError, type ScanInput } from '../../runner-agent/src/engine/index.ts';
import { insideCheckout, repoPathProblem, statePathProblem } from '../../runner-agent/src/engine/paths.ts';
import { CREDENTIALS, git } from './world.ts';

const MARKER = `SECRET-MARKER-${process.pid}`;
const dirs: string[] = [];
t.teardown(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = (prefix: string) => { const d = mkdtempSync(join(tmpdir(), prefix)); dirs.push(d); return d; };

/** A folder outside every checkout, holding what the service host must not hand out. */
const host = tmp('drift-host-');
writeFileSync(join(host, 'shadow'), `root:$6$${MARKER}:19000:0:99999:7:::\n`);
mkdirSync(join(host, 'etc'));
writeFileSync(join(host, 'etc', 'main.tf'), `# ${MARKER}\nresource "aws_security_group" "a" {\n  name = "a"\n}\n`);
writeFileSync(join(host, 'etc', 'terraform.tfstate'), JSON.stringify({ version: 4, resources: [], secret: MARKER }));

const EMPTY_STATE = JSON.stringify({ version: 4, resources: [] });
const SG_TF = 'resource "aws_security_group" "a" {\n  name = "a"\n}\n';

type Entry = string | { link: string };
/** A folder with the given files (path -> text, or a symbolic link to a target). */
function folder(files: Record<string, Entry>): string {
  const dir = tmp('drift-repo-');
  for (const [f, v] of Object.entries(files)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    if (typeof v === 'string') writeFileSync(join(dir, f), v);
    else symlinkSync(v.link, join(dir, f));
  }
  return dir;
}
/** The same, committed to a git repository: the scan clones it. */
function repo(files: Record<string, Entry>): ScanInput['source'] {
  const dir = folder(files);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'x');
  return { kind: 'git', url: dir, branch: 'main' };
}
const path = (files: Record<string, Entry>) => ({ kind: 'path' as const, path: folder(files) });
const scan = (over: Partial<ScanInput>) => detectDrift({
  source: { kind: 'path', path: folder({ 'main.tf': SG_TF, 'terraform.tfstate': EMPTY_STATE }) }, iacPaths: [], provider: 'cloud_a',
  // Every refusal happens before the first cloud call; the endpoint is never reached.
  credentials: CREDENTIALS, endpoint: 'http://127.0.0.1:9', ...over,
});

async function refused(t: Test, p: Promise<unknown>, message: RegExp, what: string) {
  const e = await p.then(() => undefined, (x: unknown) => x);
  t.ok(e instanceof ScanError, `${what}: refused with a ScanError`);
  t.match(e, { message }, `${what}: the message names the path`);
  t.notOk(String((e as Error)?.message).includes(MARKER), `${what}: and quotes nothing of the file`);
}

t.test('config paths, checked without touching the disk (the API uses the same rules)', async (t) => {
  for (const p of ['/etc/shadow', '../x', 'a/../../x', '..', '~/x', 'a\\..\\..\\x', 'C:/x', 'a\0b']) t.ok(repoPathProblem(p), `refuses ${JSON.stringify(p)}`);
  for (const p of ['.', 'infra', 'env/prod/', 'a/../b', './x.tfstate']) t.equal(repoPathProblem(p), undefined, `accepts ${p}`);
  t.ok(repoPathProblem('../../../x', 'env/prod'), 'relative to a folder: three levels up from env/prod leaves');
  t.equal(repoPathProblem('../state/x.tfstate', 'env/prod'), undefined, 'one level up from env/prod stays inside');
  t.equal(statePathProblem('s3://bucket/key.tfstate'), undefined, 's3://bucket/key');
  for (const p of ['s3://bucket', 'file:///etc/shadow', 'https://x/y']) t.ok(statePathProblem(p), `refuses ${p}`);
  t.equal(statePathProblem('../state/x.tfstate', ['env/prod']), undefined, 'statePath read from each IaC path');
  t.match(statePathProblem('../x.tfstate', ['env', '']), /outside the repository/, 'and refused when one IaC path makes it leave');
});

t.test('insideCheckout follows links by hand and refuses any that leave', async (t) => {
  const root = folder({
    'a/real.txt': 'x', 'a/link.txt': { link: 'real.txt' }, 'up.txt': { link: 'a/../a/real.txt' }, 'dir': { link: 'a' },
    'out.txt': { link: join(host, 'shadow') }, 'dangling-out': { link: '/nonexistent-drift/x' }, 'dangling-in': { link: 'nothing' },
    'outdir': { link: join(host, 'etc') }, 'rel-out': { link: '../../../../../../../../etc/passwd' }, 'loop': { link: 'loop' },
  });
  const real = await insideCheckout(root, 'a/real.txt', 'x');
  t.equal(await insideCheckout(root, 'a/link.txt', 'x'), real, 'a link to a file inside');
  t.equal(await insideCheckout(root, 'up.txt', 'x'), real, 'a link with a ".." that stays inside');
  t.equal(await insideCheckout(root, 'dir/real.txt', 'x'), real, 'through a linked folder inside');
  t.equal(await insideCheckout(root, 'missing.txt', 'x'), undefined, 'nothing there: undefined');
  t.equal(await insideCheckout(root, 'dangling-in', 'x'), undefined, 'a link to nothing inside: undefined');
  for (const rel of ['out.txt', 'dangling-out', 'outdir', 'outdir/main.tf', 'rel-out']) {
    await t.rejects(insideCheckout(root, rel, `the file ${rel}`), { code: 'source_unavailable', message: new RegExp(`^the file ${rel} .*leads outside the repository`) }, `${rel}: refused`);
  }
  await t.rejects(insideCheckout(root, 'loop', 'loop'), { message: /more than 40 symbolic links/ }, 'a link loop ends');
  await t.rejects(insideCheckout(root, 'a', 'a', 'file'), { message: /^a is not a file/ }, 'a folder where a file is expected');
});

t.test('statePath: absolute or leaving with ".." (a config stored before the API checked it)', async (t) => {
  await refused(t, scan({ statePath: join(host, 'shadow') }), /^The repository config's statePath ".*shadow" must be relative to the repository, not an absolute path/, 'absolute statePath');
  await refused(t, scan({ statePath: '../../../../../../../../../..' + join(host, 'shadow') }), /^The repository config's statePath .* must not lead outside the repository/, '".." statePath');
  await refused(t, scan({ source: repo({ 'env/main.tf': SG_TF, 'state': { link: host } }), iacPaths: ['env'], statePath: '../state/shadow' }),
    /^\.\.\/state\/shadow \(configured state path, relative to env\) is, or passes through, a symbolic link that leads outside the repository/, 'a statePath through a linked folder');
});

t.test('iacPaths leaving the repository', async (t) => {
  await refused(t, scan({ iacPaths: ['../../etc'] }), /^IaC path "\.\.\/\.\.\/etc" must not lead outside the repository/, 'iacPaths ../../etc');
  await refused(t, scan({ iacPaths: ['infra\\..\\..\\etc'] }), /^IaC path .* must use forward slashes/, 'backslashes');
  await refused(t, scan({ source: repo({ 'main.tf': SG_TF, 'infra': { link: join(host, 'etc') } }), iacPaths: ['infra'] }),
    /^IaC path "infra" is, or passes through, a symbolic link that leads outside the repository/, 'an iacPath that is a linked folder outside');
  const out = await scan({ source: repo({ 'env/main.tf': SG_TF, 'env/terraform.tfstate': EMPTY_STATE, 'infra': { link: 'env' } }), iacPaths: ['infra'] });
  t.match(out.stats.roots, [{ path: 'infra', resources: 0 }], 'a linked folder inside the repository is read');
});

t.test('symbolic links in the repository', async (t) => {
  await refused(t, scan({ source: repo({ 'main.tf': SG_TF, 'terraform.tfstate': { link: join(host, 'shadow') } }) }),
    /^terraform\.tfstate \(no backend block, so the default local state\) is, or passes through, a symbolic link that leads outside/, 'terraform.tfstate linked to a host file');
  await refused(t, scan({ source: repo({ 'main.tf': SG_TF, 'terraform.tfstate': { link: '/nonexistent-drift/state' } }) }),
    /terraform\.tfstate .*leads outside/, 'a link outside to nothing: refused the same, so the host cannot be probed');
  await refused(t, scan({ source: repo({ 'main.tf': `terraform {\n  backend "local" {\n    path = "s/x.tfstate"\n  }\n}\n${SG_TF}`, 's': { link: join(host, 'etc') } }) }),
    /^s\/x\.tfstate \(backend "local"\) .*leads outside/, 'a backend "local" path through a linked folder');
  await refused(t, scan({ source: repo({ 'main.tf': `terraform {\n  backend "local" {\n    path = "${join(host, 'shadow')}"\n  }\n}\n${SG_TF}` }) }),
    /^The path of backend "local" in the repository root must be relative/, 'an absolute backend "local" path');
  await refused(t, scan({ source: repo({ 'main.tf': SG_TF, 'extra.tf': { link: join(host, 'etc', 'main.tf') }, 'terraform.tfstate': EMPTY_STATE }) }),
    /^extra\.tf is, or passes through, a symbolic link that leads outside/, 'a .tf file linked outside');
  await refused(t, scan({ source: repo({ 'main.tf': SG_TF, 'terraform.tfstate': EMPTY_STATE, '.driftignore': { link: join(host, 'shadow') } }) }),
    /^\.driftignore is, or passes through, a symbolic link that leads outside/, '.driftignore linked outside');
  const out = await scan({ source: repo({ 'main.tf': SG_TF, 'states/prod.tfstate': EMPTY_STATE, 'terraform.tfstate': { link: 'states/prod.tfstate' } }) });
  t.match(out, { resourcesScanned: 0, stats: { roots: [{ path: '.' }] } }, 'a link to a state inside the repository is read');
});

t.test('files that do not parse: where and what kind, never their bytes', async (t) => {
  const shadow = `root:$6$${MARKER}:19000:0:99999:7:::\n`;
  await refused(t, scan({ source: path({ 'main.tf': SG_TF, 'terraform.tfstate': shadow }) }),
    /^The state at terraform\.tfstate \(no backend block, so the default local state\) is not valid JSON \(an unexpected character\)$/, 'a state that is not JSON');
  await refused(t, scan({ source: path({ 'main.tf': SG_TF, 'terraform.tfstate': `{"version": 4,\n "resources": [${MARKER}` }) }),
    /is not valid JSON/, 'a state cut short');
  await refused(t, scan({ source: path({ 'main.tf': SG_TF, 'terraform.tfstate': JSON.stringify({ version: MARKER }) }) }),
    /has a "version" that is a string; the format version is the number 4, unquoted; the scanner reads format version 4/, 'a version that is text');
  await refused(t, scan({ source: path({ 'main.tf': SG_TF, 'terraform.tfstate': JSON.stringify([MARKER]) }) }), /is a list, not a state file$/, 'a JSON array');
  await refused(t, scan({ source: path({ 'main.tf': SG_TF, 'terraform.tfstate': '{"version":3}' }) }), /has format version 3; the scanner reads format version 4/, 'an old format, its number kept');
  await refused(t, scan({ source: path({ 'main.tf': shadow }) }), /^Could not parse main\.tf: [A-Z][A-Za-z -]+ at line 1, column \d+$/, 'a .tf file that is not HCL');
  await refused(t, scan({ source: path({ 'main.tf': `resource "x" "y" {\n  a = "${MARKER}\n}\n` }) }), /^Could not parse main\.tf: .* at line 2, column \d+$/, 'an unterminated string');
  await refused(t, scan({ source: path({ 'main.tf.json': `{"resource": ${MARKER}}` }) }), /^Could not parse main\.tf\.json: not valid JSON \(an unexpected character\)$/, 'a .tf.json that is not JSON');
  await refused(t, scan({ source: path({ 'main.tf.json': `{\n  "resource": "${MARKER}` }) }), /^Could not parse main\.tf\.json: not valid JSON \(an unterminated string, line 2, column \d+\)$/, 'with its line and column when JSON.parse gives a position');
});
