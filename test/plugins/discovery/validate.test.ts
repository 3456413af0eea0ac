// Cloud Discovery's validate (issue 37 point 5): the answer names the validator that ran, is
// false when the HCL does not parse, and is null with the reason when only the parser ran: no
// terraform/tofu on PATH, or one that cannot initialise (no provider reachable).
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateHcl } from '../../../plugins/discovery/iac.ts';
import { findTofu } from '../../../runner-agent/src/engine/tofu.ts';

const HCL = 'resource "aws_key_pair" "k" {\n  key_name   = "k"\n  public_key = "ssh-ed25519 AAAA"\n}\n';

async function withEnv<T>(env: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try { return await work(); } finally {
    for (const [k, v] of Object.entries(before)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
  }
}

t.test('HCL that does not parse: false, by the parser', async (t) => {
  t.match(await validateHcl('resource "aws_key_pair" "k" {\n  key_name = \n'), { valid: false, validator: 'hcl2json', message: String });
});

t.test('no terraform or tofu on PATH: null, and why', async (t) => {
  const v = await withEnv({ PATH: '/nonexistent' }, () => validateHcl(HCL));
  t.same(v, { valid: null, validator: 'hcl2json', message: 'Not validated: the HCL parses (hcl2json), but no terraform or tofu is on PATH to validate it against the provider schema' });
});

t.test('terraform/tofu that cannot initialise: null, naming the failed init', { skip: findTofu() ? false : 'neither tofu nor terraform on PATH' }, async (t) => {
  // A CLI configuration whose only provider source is an empty filesystem mirror: init fails offline, at once.
  const dir = mkdtempSync(join(tmpdir(), 'validate-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'cli.tfrc'), `provider_installation {\n  filesystem_mirror {\n    path = "${dir}"\n  }\n}\n`);
  const v = await withEnv({ TF_CLI_CONFIG_FILE: join(dir, 'cli.tfrc') }, () => validateHcl(HCL));
  t.equal(v.valid, null, 'not validated');
  t.equal(v.validator, 'hcl2json', 'only the parser ran');
  t.match(v.message, /^Not validated: the HCL parses \(hcl2json\), but (terraform|tofu) init failed \(Error: /, v.message ?? '');
});
