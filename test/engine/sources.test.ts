// Where the engine finds its inputs (git or a folder, backend local/s3, default state, statePath)
// and the ScanErrors a user gets when something is missing, with messages that say where it looked.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { CreateSecurityGroupCommand } from '@aws-sdk/client-ec2';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { ROOT } from '../../core/loader.ts';
import { detectDrift, ScanError, type ScanInput } from '../../runner-agent/src/engine/index.ts';
import { clients, commitFile, CREDENTIALS, describeGroup, git } from './world.ts';
import { renderPermissions } from '../../runner-agent/src/engine/cloud/aws/vpc/security-group-rules.ts';

const c = clients();
const suffix = `${Date.now().toString(36)}${process.pid}`;
const sgId = (await c.ec2.send(new CreateSecurityGroupCommand({ GroupName: `src-${suffix}`, Description: 'src' }))).GroupId!;
const g = await describeGroup(c, sgId);
const state = JSON.stringify({ version: 4, serial: 1, lineage: 'l', resources: [{
  mode: 'managed', type: 'aws_security_group', name: 'a', provider: 'provider["registry.terraform.io/hashicorp/aws"]',
  instances: [{ attributes: { id: sgId, name: g.GroupName, description: 'src', vpc_id: g.VpcId, tags: {}, ingress: [], egress: renderPermissions(g.IpPermissionsEgress, sgId) } }],
}] });
const stateBucket = `src-state-${suffix}`;
await c.s3.send(new CreateBucketCommand({ Bucket: stateBucket }));
await c.s3.send(new PutObjectCommand({ Bucket: stateBucket, Key: 'a.tfstate', Body: state }));

const dirs: string[] = [];
t.teardown(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
/** A folder with the given files (path -> text). */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'drift-src-'));
  dirs.push(dir);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}
const SG_TF = 'resource "aws_security_group" "a" {\n  name = "a"\n}\n';
const scan = (over: Partial<ScanInput>) => detectDrift({
  source: { kind: 'path', path: folder({ 'main.tf': SG_TF }) }, iacPaths: [], provider: 'cloud_a',
  credentials: CREDENTIALS, endpoint: c.endpoint, ...over,
});
const path = (files: Record<string, string>) => ({ kind: 'path' as const, path: folder(files) });

t.test('state locations', async (t) => {
  let out = await scan({ source: path({ 'main.tf': SG_TF, 'terraform.tfstate': state }) });
  t.match(out, { drifts: [], resourcesScanned: 1 }, 'default: terraform.tfstate beside the .tf files of the repository root');
  t.match(out.stats.roots, [{ path: '.', state: 'terraform.tfstate (no backend block, so the default local state)' }]);

  out = await scan({ source: path({ 'env/prod/main.tf': `terraform {\n  backend "local" {\n    path = "../state/prod.tfstate"\n  }\n}\n${SG_TF}`, 'env/state/prod.tfstate': state }), iacPaths: ['env/prod/'] });
  t.match(out.stats.roots, [{ path: 'env/prod', state: 'env/state/prod.tfstate (backend "local")', resources: 1 }], 'backend "local" path, relative to the module');

  out = await scan({ source: path({ 'main.tf': SG_TF, 'x/y.json': state }), statePath: 'x/y.json' });
  t.equal(out.resourcesScanned, 1, 'statePath in the repository');
  out = await scan({ statePath: `s3://${stateBucket}/a.tfstate` });
  t.match(out.stats.roots, [{ state: `s3://${stateBucket}/a.tfstate (configured state path)` }], 'statePath in S3');

  const repo = folder({ 'infra/main.tf': `terraform {\n  backend "s3" {\n    bucket = "${stateBucket}"\n    key = "a.tfstate"\n    region = "us-east-1"\n  }\n}\n${SG_TF}` });
  git(repo, 'init', '-q', '-b', 'feature');
  commitFile(repo, 'README.md', 'x');
  out = await scan({ source: { kind: 'git', url: repo, branch: 'feature' }, iacPaths: ['infra'] });
  t.match(out, { drifts: [], resourcesScanned: 1, stats: { roots: [{ state: `s3://${stateBucket}/a.tfstate (backend "s3")` }] } }, 'a git checkout of a plain path, backend s3');
});

t.test('errors a user can act on', async (t) => {
  const rejects = async (p: Promise<unknown>, code: string, message: RegExp, what: string) => {
    const e = await p.then(() => undefined, (x: unknown) => x);
    t.ok(e instanceof ScanError, `${what}: a ScanError`);
    t.match(e, { code, message }, what);
  };
  await rejects(scan({ credentials: null }), 'no_credentials', /No cloud_a credentials: add them/, 'no credentials');
  await rejects(scan({ credentials: { region: 'us-east-1' } }), 'no_credentials', /lack an access key id/, 'incomplete credentials');
  await rejects(scan({ provider: 'cloud_b' }), 'no_credentials', /The cloud_b credentials lack subscriptionId/, 'cloud_b with cloud_a keys');
  await rejects(scan({ provider: 'cloud_c' }), 'no_credentials', /cloud_c/, 'cloud_c with cloud_a keys');
  await rejects(scan({ provider: 'cloud_x' as ScanInput['provider'] }), 'unsupported_provider', /Unknown provider cloud_x/, 'an unknown provider');
  await rejects(scan({}), 'state_not_found', /No state file at terraform\.tfstate \(no backend block/, 'no local state');
  await rejects(scan({ statePath: `s3://${stateBucket}/missing.tfstate` }), 'state_not_found', new RegExp(`No state object at s3://${stateBucket}/missing.tfstate .*the key does not exist`), 'missing S3 key');
  await rejects(scan({ statePath: 's3://no-such-bucket-drift/x' }), 'state_not_found', /the bucket does not exist/, 'missing S3 bucket');
  await rejects(scan({ source: path({ 'main.tf': 'terraform {\n  backend "consul" {\n    path = "b"\n  }\n}\n' }) }), 'state_not_found', /backend "consul" .* not supported.*state path/, 'unsupported backend');
  await rejects(scan({ source: path({ 'main.tf': 'terraform {\n  backend "gcs" {\n    bucket = "b"\n  }\n}\n' }) }), 'no_credentials', /gs:\/\/b\/default\.tfstate \(backend "gcs"\) needs cloud_c credentials/, 'a gcs state on a cloud_a config');
  await rejects(scan({ source: path({ 'main.tf': 'terraform {\n  backend "s3" {}\n}\n' }) }), 'state_not_found', /partial backend configuration/, 'partial s3 backend');
  await rejects(scan({ source: path({ 'main.tf': 'resource "aws_instance" "x" {\n  ami = \n}\n' }) }), 'parse_error', /Could not parse main\.tf/, 'bad HCL');
  await rejects(scan({ source: path({ 'README.md': 'x' }) }), 'parse_error', /IaC path "" holds no \.tf or \.tofu files/, 'no .tf files');
  await rejects(scan({ iacPaths: ['nope'] }), 'source_unavailable', /IaC path "nope" does not exist/, 'missing iacPath');
  await rejects(scan({ iacPaths: ['../etc'] }), 'source_unavailable', /outside the repository/, 'iacPath escaping the repository');
  await rejects(scan({ source: path({ 'main.tf': SG_TF, 'terraform.tfstate': '{"version":3}' }) }), 'parse_error', /format version 3/, 'old state format');
  await rejects(scan({ source: { kind: 'path', path: '/nonexistent/drift' } }), 'source_unavailable', /does not exist/, 'missing folder');
  await rejects(scan({ source: { kind: 'git', url: 'https://user:s3cret@127.0.0.1:9/nope.git', branch: 'main' } }), 'source_unavailable',
    /Could not clone branch "main" of https:\/\/\*\*\*@127\.0\.0\.1:9\/nope\.git: .*(fatal|unable)/i, 'unreachable git host, credentials redacted');
  const repo = folder({ 'main.tf': SG_TF });
  git(repo, 'init', '-q', '-b', 'main');
  commitFile(repo, 'x', 'x');
  await rejects(scan({ source: { kind: 'git', url: `file://${repo}`, branch: 'nope' } }), 'source_unavailable', /branch "nope".*Remote branch nope not found/, 'missing branch');
  await rejects(scan({ signal: AbortSignal.abort(new DOMException('t', 'TimeoutError')) }), 'timeout', /exceeded its time limit/, 'aborted scan');
  await rejects(scan({ source: path({ 'main.tf': SG_TF, 'terraform.tfstate': state }), endpoint: 'http://127.0.0.1:9' }), 'timeout', /could not be reached \(ECONNREFUSED\)/, 'cloud API unreachable');
});

// moto checks credentials only when told to; a second moto with auth on gives real denials.
// Its executable: DRIFT_MOTO_SERVER, else the one `npm run services` installs (<data>/venv), else
// moto_server on PATH. A checkout whose services another checkout started has no venv of its own
// and used to skip here although moto was installed; the skip reason is not an allowed
// environment gap (test/allowed-skips.json): `npm test`'s pretest installs moto.
const motoCandidates = [process.env.DRIFT_MOTO_SERVER, join(process.env.DRIFT_DATA_DIR ?? join(ROOT, '.data'), 'venv', 'bin', 'moto_server'),
  ...(process.env.PATH ?? '').split(':').filter(Boolean).map((d) => join(d, 'moto_server'))].filter((p): p is string => Boolean(p));
const motoExe = motoCandidates.find((p) => existsSync(p)) ?? '';
t.test('access denied by the cloud', { skip: motoExe ? false : `no moto_server executable (looked at ${motoCandidates.slice(0, 2).join(', ')} and PATH)` }, async (t) => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
  });
  const child = spawn(motoExe, ['-H', '127.0.0.1', '-p', String(port)], { env: { ...process.env, INITIAL_NO_AUTH_ACTION_COUNT: '0' }, stdio: 'ignore' });
  t.teardown(() => { child.kill('SIGTERM'); });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !(await fetch(`${endpoint}/moto-api/data.json`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 200));
  const e = await scan({ source: path({ 'main.tf': SG_TF, 'terraform.tfstate': state }), endpoint }).catch((x: unknown) => x);
  t.match(e, { code: 'access_denied', message: /cloud_a denied ec2:DescribeSecurityGroups \((AuthFailure|InvalidClientTokenId|UnauthorizedOperation)/ }, 'unknown access key');
  const e2 = await scan({ statePath: 's3://b/k', endpoint }).catch((x: unknown) => x);
  t.match(e2, { code: 'access_denied', message: /s3:GetObject/ }, 'reading the state object');
});

t.test('ids the cloud does not know are deleted resources (batch call falls back to filters)', async (t) => {
  const withGhosts = JSON.parse(state);
  const provider = 'provider["registry.terraform.io/hashicorp/aws"]';
  withGhosts.resources.push(
    { mode: 'managed', type: 'aws_security_group', name: 'ghost', provider, instances: [{ attributes: { id: 'sg-0123456789deadbee', name: 'ghost' } }] },
    { mode: 'managed', type: 'aws_instance', name: 'ghost', provider, instances: [{ index_key: 0, attributes: { id: 'i-0123456789deadbee' } }] },
  );
  const out = await scan({ source: path({ 'main.tf': SG_TF, 'terraform.tfstate': JSON.stringify(withGhosts) }) });
  t.same(out.drifts.map((d) => [d.resourceAddress, d.changeType, d.severity]).sort(), [
    ['aws_instance.ghost[0]', 'deleted', 'high'], ['aws_security_group.ghost', 'deleted', 'high'],
  ], 'both reported deleted; the existing group is clean');
  t.equal(out.stats.sdkCallsByService.ec2, 4, 'one batch call per type, then one filtered call each');
});
