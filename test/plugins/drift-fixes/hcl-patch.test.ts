// Exact fixes (issue 22 point 6) on real HCL files: each patch is checked with `git apply
// --check` against a repository holding the files, applied, and the result parsed again with
// the engine's HCL parser (@cdktf/hcl2json) to read the live values back. Values written as
// expressions (a variable, a local, a function call) end in advice naming them, never an edit.
import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@cdktf/hcl2json';
import { acceptEdits, applyEdits, findResource, removeBlockEdit, type Change } from '../../../plugins/drift-fixes/hcl-patch.ts';
import { literalOf, render } from '../../../plugins/drift-fixes/hcl-read.ts';
import { unifiedDiff } from '../../../plugins/drift-fixes/unified-diff.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const MAIN = readFileSync(path.join(here, 'fixtures', 'main.tf'), 'utf8');

function repo(t: Test) {
  const dir = mkdtempSync(path.join(tmpdir(), 'fix-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(path.join(here, 'fixtures'), path.join(dir, 'infra'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x' } });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'infra');
  return { dir, git };
}

async function fix(t: Test, type: string, name: string, changes: Change[]) {
  const open = findResource(MAIN, type, name, null);
  t.ok(open > 0, `${type}.${name} found`);
  const patch = acceptEdits(MAIN, open, changes);
  const after = applyEdits(MAIN, patch.edits);
  const diff = unifiedDiff('infra/main.tf', MAIN, after);
  const { dir, git } = repo(t);
  if (diff) {
    writeFileSync(path.join(dir, 'fix.patch'), diff);
    t.doesNotThrow(() => git('apply', '--check', 'fix.patch'), 'git apply --check accepts the patch');
    git('apply', 'fix.patch');
    t.equal(readFileSync(path.join(dir, 'infra', 'main.tf'), 'utf8'), after, 'git apply gives the fixed file');
  }
  const parsed = (await parse('main.tf', after)) as { resource: Record<string, Record<string, Record<string, unknown>[]>> };
  return { patch, diff, block: parsed.resource[type][name][0] };
}

t.test('literals, maps, nested blocks, added and removed attributes: exact', async (t) => {
  const { patch, diff, block } = await fix(t, 'aws_instance', 'web', [
    { attribute: 'instance_type', before: 't3.micro', after: 't3.large' },
    { attribute: 'tags.Owner', before: 'platform', after: 'security' },
    { attribute: 'tags.CostCenter', before: null, after: '42' },
    { attribute: 'root_block_device.0.volume_size', before: 20, after: 50 },
    { attribute: 'monitoring', before: false, after: null },
    { attribute: 'ebs_optimized', before: null, after: true },
  ]);
  t.same(patch.advice, []);
  t.equal(patch.exact.length, 6);
  t.equal(block.instance_type, 't3.large');
  t.same(block.tags, { Name: 'web', Owner: 'security', CostCenter: '42' });
  t.same(block.root_block_device, [{ volume_size: 50, encrypted: true }]);
  t.notOk('monitoring' in block, 'gone from the cloud: gone from the code');
  t.equal(block.ebs_optimized, true);
  t.match(diff, /# small on purpose/, 'the comment after the value is kept');
});

t.test('a nested block attribute (versioning_configuration.0.status)', async (t) => {
  const { patch, block } = await fix(t, 'aws_s3_bucket_versioning', 'logs', [{ attribute: 'versioning_configuration.0.status', before: 'Enabled', after: 'Suspended' }]);
  t.same(patch.exact, ['versioning_configuration.0.status']);
  t.same(block.versioning_configuration, [{ status: 'Suspended' }]);
});

t.test('a list of nested blocks written again from the live objects', async (t) => {
  const live = [
    { cidr_blocks: ['10.0.0.0/8'], description: '', from_port: 443, protocol: 'tcp', self: false, to_port: 443 },
    { cidr_blocks: ['0.0.0.0/0'], description: 'ssh', from_port: 22, protocol: 'tcp', self: false, to_port: 22 },
  ];
  const { patch, block } = await fix(t, 'aws_security_group', 'web', [{ attribute: 'ingress', before: [], after: live }]);
  t.same(patch.exact, ['ingress']);
  t.same(block.ingress, live);
  t.equal(block.vpc_id, '${var.vpc_id}', 'the rest of the block untouched');
});

t.test('values from a variable, a local or an expression: advice naming them; lists of literals exact', async (t) => {
  const { patch, block } = await fix(t, 'aws_instance', 'db', [
    { attribute: 'instance_type', before: 'r6g.large', after: 'r6g.xlarge' },
    { attribute: 'subnet_id', before: 'subnet-1', after: 'subnet-2' },
    { attribute: 'tags.Name', before: 'db', after: 'db-old' },
    { attribute: 'vpc_security_group_ids', before: ['sg-0123', 'sg-0456'], after: ['sg-0123'] },
  ]);
  t.same(patch.exact, ['vpc_security_group_ids']);
  t.same(block.vpc_security_group_ids, ['sg-0123']);
  t.equal(block.instance_type, '${var.db_instance_type}', 'a variable is never rewritten in place');
  const advice = Object.fromEntries(patch.advice.map((a) => [a.attribute, a.text]));
  t.match(advice.instance_type, /variable "db_instance_type".*tfvars/);
  t.match(advice.subnet_id, /local "private_subnet"/);
  t.match(advice['tags.Name'], /merge\(local\.common_tags/);
  t.match(block.user_data, /echo "\{ hello \}"/, 'the heredoc is read past, untouched');
});

t.test('a resource deleted in the cloud, accepted: its block removed', async (t) => {
  const open = findResource(MAIN, 'aws_s3_bucket_versioning', 'logs', 24);
  const after = applyEdits(MAIN, [removeBlockEdit(MAIN, open)!]);
  const { dir, git } = repo(t);
  writeFileSync(path.join(dir, 'rm.patch'), unifiedDiff('infra/main.tf', MAIN, after));
  t.doesNotThrow(() => git('apply', '--check', 'rm.patch'));
  const parsed = (await parse('main.tf', after)) as { resource: Record<string, unknown> };
  t.notOk('aws_s3_bucket_versioning' in parsed.resource);
  t.ok('aws_security_group' in parsed.resource, 'the next block stays');
});

t.test('literal reading and rendering round-trip', async (t) => {
  for (const v of ['a "quoted" ${not} template', 42, -1.5, true, null, ['x', 1], { a: 'b', 'with space': [1, 2] }]) {
    t.same(literalOf(render(v, '')), v, JSON.stringify(v));
  }
  t.equal(literalOf('var.x'), undefined);
  t.equal(literalOf('"${var.x}-a"'), undefined);
  t.equal(unifiedDiff('f', 'same\n', 'same\n'), '');
  t.match(unifiedDiff('f', 'a\nb', 'a\nc'), /\\ No newline at end of file/);
});
