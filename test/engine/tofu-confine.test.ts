// The tofu path's confinement on the service host (issue 32 point 6): copyConfined keeps every
// link inside the copy and refuses one leading out; confineConfiguration refuses, naming the
// file and line, every configuration that would read the host's files, run a program, or reach
// an address of its own choosing, and lets a plain configuration through.
import t from 'tap';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { confineConfiguration, copyConfined } from '../../runner-agent/src/engine/tofu-confine.ts';

function repo(t: { teardown(f: () => void): void }, files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'confine-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const PLAIN = {
  'main.tf': [
    'terraform {\n  backend "s3" {\n    bucket = "b"\n    key    = "k"\n    region = "us-east-1"\n  }\n}',
    'provider "aws" {\n  region = "us-east-1"\n}',
    'resource "aws_iam_policy" "p" {\n  policy = file("${path.module}/policy.json")\n  description = templatefile("tpl/desc.tpl", { name = "x" })\n}',
    'module "net" {\n  source = "./modules/net"\n}',
    'locals {\n  all = fileset(path.module, "tpl/*.tpl")\n}',
  ].join('\n\n'),
  'policy.json': '{}',
  'tpl/desc.tpl': 'Policy for ${name}',
  'modules/net/main.tf': 'resource "aws_vpc" "v" {\n  cidr_block = "10.0.0.0/16"\n}\n',
};

t.test('a plain configuration passes', async (t) => {
  const dir = repo(t, PLAIN);
  await t.resolves(confineConfiguration(dir, dir));
});

const REFUSED: [string, Record<string, string>, RegExp][] = [
  ['file() of an absolute path', { 'main.tf': 'locals {\n  x = file("/etc/passwd")\n}\n' }, /^main\.tf:2: file\(\) reads a path that is not a literal inside the repository/],
  ['file() leaving the repository', { 'a/main.tf': 'locals {\n\n  x = filebase64("${path.module}/../../../etc/hostname")\n}\n' }, /^a\/main\.tf:3: filebase64\(\)/],
  ['file() of a variable', { 'main.tf': 'variable "p" {}\nlocals {\n  x = file(var.p)\n}\n' }, /^main\.tf:3: file\(\)/],
  ['file() with a comment before the parenthesis', { 'main.tf': 'locals {\n  x = file /* hi */ ("/etc/passwd")\n}\n' }, /^main\.tf:2: file\(\)/],
  ['core::file()', { 'main.tf': 'locals {\n  x = core::file("/etc/passwd")\n}\n' }, /^main\.tf:2: file\(\)/],
  ['fileset() with a pattern leaving the repository', { 'main.tf': 'locals {\n  x = fileset(path.module, "../../../**")\n}\n' }, /^main\.tf:2: fileset\(\)/],
  ['a template reading the host', { 'main.tf': 'locals {\n  x = templatefile("t.tpl", {})\n}\n', 't.tpl': 'hi\n${file("/etc/passwd")}\n' }, /^t\.tpl:2: file\(\)/],
  ['a .tf.json file reading the host', { 'main.tf.json': '{"locals": {"x": "${file(\\"/etc/passwd\\")}"}}' }, /^main\.tf\.json:1: file\(\)/],
  ['a provider-defined function', { 'main.tf': 'locals {\n  x = provider::local::direxists("/")\n}\n' }, /^main\.tf:2: a provider-defined function/],
  ['data "external"', { 'main.tf': '\ndata "external" "x" {\n  program = ["sh", "-c", "id"]\n}\n' }, /^main\.tf:2: data "external" runs a program/],
  ['data "local_file"', { 'main.tf': 'data "local_file" "x" {\n  filename = "/etc/passwd"\n}\n' }, /^main\.tf:1: data "local_file"/],
  ['data "http"', { 'main.tf': 'data "http" "x" {\n  url = "http://169.254.169.254/"\n}\n' }, /^main\.tf:1: data "http"/],
  ['a local-exec provisioner', { 'main.tf': 'resource "terraform_data" "x" {\n  provisioner "local-exec" {\n    command = "id"\n  }\n}\n' }, /^main\.tf:2: a provisioner/],
  ['a remote-exec provisioner', { 'main.tf': 'resource "aws_instance" "x" {\n  ami = "a"\n\n  provisioner "remote-exec" {\n    inline = ["id"]\n  }\n}\n' }, /^main\.tf:4: a provisioner/],
  ['a git module source', { 'main.tf': 'module "m" {\n  source = "git::http://127.0.0.1:9/x.git"\n}\n' }, /^main\.tf:1: module "m" comes from "git::http:\/\/127\.0\.0\.1:9\/x\.git"/],
  ['a registry module', { 'main.tf': 'module "m" {\n  source = "internal.example/ns/name/aws"\n}\n' }, /^main\.tf:1: module "m"/],
  ['a local module outside the repository', { 'main.tf': 'module "m" {\n  source = "../../../../tmp"\n}\n' }, /^main\.tf:1: module "m"/],
  ['a provider reading host credentials', { 'main.tf': 'provider "aws" {\n  region = "us-east-1"\n  shared_credentials_files = ["/root/.aws/credentials"]\n}\n' }, /^main\.tf:3: provider "aws" sets shared_credentials_files/],
  ['a provider using a host profile', { 'main.tf': 'provider "aws" {\n  profile = "prod"\n}\n' }, /^main\.tf:2: provider "aws" sets profile/],
  ['a provider endpoint', { 'main.tf': 'provider "aws" {\n  endpoints {\n    sts = "http://127.0.0.1:1"\n  }\n}\n' }, /^main\.tf:2: provider "aws" sets endpoints/],
  ['remote state from a local file', { 'main.tf': 'data "terraform_remote_state" "x" {\n  backend = "local"\n  config = { path = "/etc/x" }\n}\n' }, /^main\.tf:1: terraform_remote_state reads backend "local"/],
];

for (const [name, files, message] of REFUSED) {
  t.test(`refused: ${name}`, async (t) => {
    const dir = repo(t, files);
    await t.rejects(confineConfiguration(dir, dir), { name: 'ScanError', message }, name);
  });
}

t.test('a backend of any kind passes: the plan overrides it to local (tofu-run.ts) and never reaches it', async (t) => {
  const backends = ['local" {\n    path = "/etc/x.tfstate"', 'http" {\n    address = "http://127.0.0.1/"', 'remote" {\n    organization = "o"'];
  for (const backend of backends) {
    const dir = repo(t, { 'main.tf': `terraform {\n  backend "${backend}\n  }\n}\n` });
    await t.resolves(confineConfiguration(dir, dir), backend.split('"')[0]);
  }
});

t.test('programs pass only when the operator allows them (EXECUTOR_PLAN_PROGRAMS)', async (t) => {
  const external = { 'main.tf': '\ndata "external" "x" {\n  program = ["sh", "-c", "id"]\n}\n' };
  const provisioner = { 'main.tf': 'resource "terraform_data" "x" {\n  provisioner "local-exec" {\n    command = "id"\n  }\n}\n' };
  for (const files of [external, provisioner]) {
    const dir = repo(t, files);
    await t.rejects(confineConfiguration(dir, dir), { name: 'ScanError', code: 'plan_refused', message: /EXECUTOR_PLAN_PROGRAMS=true/ });
    await t.resolves(confineConfiguration(dir, dir, { allowPrograms: true }));
  }
  const host = repo(t, { 'main.tf': 'data "local_file" "x" {\n  filename = "/etc/passwd"\n}\n' });
  await t.rejects(confineConfiguration(host, host, { allowPrograms: true }), { message: /data "local_file" reads the host/ }, 'reading the host stays refused');
});

t.test('copyConfined: links stay inside the copy; a link leading out is refused', async (t) => {
  const src = repo(t, { 'main.tf': 'terraform {}\n', 'shared/vars.tf': 'variable "x" {}\n', '.git/config': 'x', '.terraform/p': 'x' });
  symlinkSync('shared/vars.tf', path.join(src, 'vars.tf'));
  const dst = mkdtempSync(path.join(tmpdir(), 'confine-dst-'));
  t.teardown(() => rmSync(dst, { recursive: true, force: true }));
  await copyConfined(src, path.join(dst, 'ok'));
  t.ok(lstatSync(path.join(dst, 'ok', 'vars.tf')).isSymbolicLink(), 'a link inside the repository is kept as a link');
  t.equal(readFileSync(path.join(dst, 'ok', 'vars.tf'), 'utf8'), 'variable "x" {}\n', '... to the copy of its target');
  t.throws(() => lstatSync(path.join(dst, 'ok', '.git')), 'the .git folder is not copied');

  symlinkSync('/etc/passwd', path.join(src, 'passwd.tf'));
  await t.rejects(copyConfined(src, path.join(dst, 'bad')), { name: 'ScanError', message: /^passwd\.tf: a symbolic link to a path outside the repository \(\/etc\/passwd\)/ });
});
