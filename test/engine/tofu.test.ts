// The tofu/terraform path end to end, when a binary and the hashicorp/aws provider are available
// offline (a filesystem mirror): terraform applies real resources into moto with its state in an
// S3 backend, then the same drifts come out of the refresh-only plan and out of the SDK path.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { AuthorizeSecurityGroupIngressCommand, DescribeSecurityGroupsCommand } from '@aws-sdk/client-ec2';
import { CreateBucketCommand, PutBucketVersioningCommand } from '@aws-sdk/client-s3';
import { detectDrift, type DetectedDrift, type ScanInput } from '../../runner-agent/src/engine/index.ts';
import { findTofu } from '../../runner-agent/src/engine/tofu.ts';
import { clients, commitFile, CREDENTIALS, git } from './world.ts';

// Where this kind of machine keeps the provider; DRIFT_TF_PLUGIN_MIRROR points elsewhere.
const mirror = process.env.DRIFT_TF_PLUGIN_MIRROR ?? '/opt/tf-plugins';
const bin = findTofu();
const hasMirror = existsSync(join(mirror, 'registry.terraform.io', 'hashicorp', 'aws'));
const skip = !bin ? 'neither tofu nor terraform on PATH' : !hasMirror ? `no provider mirror at ${mirror}` : false;

t.test('refresh-only plan through tofu/terraform', { skip }, async (t) => {
  const c = clients();
  const scratch = mkdtempSync(join(tmpdir(), 'drift-tofu-test-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  // The engine passes its environment on: the CLI config names the mirror, nothing is downloaded.
  const rc = join(scratch, 'cli.tfrc');
  writeFileSync(rc, `provider_installation {\n  filesystem_mirror {\n    path = "${mirror}"\n  }\n}\n`);
  const prevRc = process.env.TF_CLI_CONFIG_FILE;
  process.env.TF_CLI_CONFIG_FILE = rc;
  t.teardown(() => { if (prevRc === undefined) delete process.env.TF_CLI_CONFIG_FILE; else process.env.TF_CLI_CONFIG_FILE = prevRc; });

  const suffix = `${Date.now().toString(36)}${process.pid}`;
  const stateBucket = `tofu-state-${suffix}`;
  await c.s3.send(new CreateBucketCommand({ Bucket: stateBucket }));
  const repo = join(scratch, 'repo');
  git(scratch, 'init', '-q', '-b', 'main', 'repo');
  commitFile(repo, 'main.tf', `terraform {
  backend "s3" {
    bucket = "${stateBucket}"
    key    = "app/terraform.tfstate"
    region = "us-east-1"
  }
}

provider "aws" {
  region = "us-east-1"
}

resource "aws_security_group" "web" {
  name        = "tofu-web-${suffix}"
  description = "web"
  ingress {
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/8"]
  }
  tags = { Env = "prod" }
}

resource "aws_s3_bucket" "data" {
  bucket = "tofu-data-${suffix}"
}

resource "aws_s3_bucket_versioning" "data" {
  bucket = aws_s3_bucket.data.id
  versioning_configuration {
    status = "Enabled"
  }
}
`);

  // Apply once, the way a user would have (endpoint settings only in an override file, as the engine writes them).
  const work = join(scratch, 'apply');
  git(scratch, 'clone', '-q', repo, 'apply');
  writeFileSync(join(work, 'moto_override.tf'), `provider "aws" {\n  endpoints {\n    ec2 = "${c.endpoint}"\n    s3 = "${c.endpoint}"\n    iam = "${c.endpoint}"\n    sts = "${c.endpoint}"\n  }\n  s3_use_path_style = true\n  skip_credentials_validation = true\n  skip_requesting_account_id = true\n  skip_metadata_api_check = true\n}\n`);
  writeFileSync(join(work, 'moto.tfbackend'), `endpoints = { s3 = "${c.endpoint}" }\nuse_path_style = true\nskip_credentials_validation = true\nskip_requesting_account_id = true\nskip_metadata_api_check = true\n`);
  const env = { ...process.env, AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey, AWS_REGION: 'us-east-1', CHECKPOINT_DISABLE: '1' };
  const tf = (...args: string[]) => new Promise<void>((resolve, reject) =>
    execFile(bin!, args, { cwd: work, env }, (e, _o, stderr) => (e ? reject(new Error(`${args[0]}: ${stderr}`)) : resolve())));
  await tf('init', '-input=false', '-no-color', '-backend-config=moto.tfbackend');
  await tf('apply', '-auto-approve', '-input=false', '-no-color');

  const input = (over: Partial<ScanInput> = {}): ScanInput => ({
    source: { kind: 'git', url: repo, branch: 'main' }, iacPaths: [], provider: 'cloud_a', credentials: CREDENTIALS, endpoint: c.endpoint, ...over,
  });
  const summary = (ds: DetectedDrift[]) => ds.map((d) => [d.resourceAddress, d.changeType, d.severity, d.ruleId]).sort();

  const clean = await detectDrift(input());
  t.same(clean.drifts, [], 'the SDK path finds no drift in the state terraform wrote');
  t.equal(clean.resourcesScanned, 3, 'and compared all three resources');

  const sgId = (await c.ec2.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-name', Values: [`tofu-web-${suffix}`] }] }))).SecurityGroups![0].GroupId!;
  await c.ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: sgId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
  await c.s3.send(new PutBucketVersioningCommand({ Bucket: `tofu-data-${suffix}`, VersioningConfiguration: { Status: 'Suspended' } }));

  const viaTofu = await detectDrift(input({ comparison: 'provider', providerPlans: true }));
  t.equal(viaTofu.stats.mode, 'tofu', `the plan ran (${viaTofu.stats.providerPlan?.reason ?? 'no fallback'})`);
  t.equal(viaTofu.resourcesScanned, 3);
  const expected = [
    ['aws_s3_bucket_versioning.data', 'changed', 'medium', 's3-versioning-disabled'],
    ['aws_security_group.web', 'changed', 'critical', 'sg-ingress-open-to-world'],
  ];
  t.same(summary(viaTofu.drifts), expected, 'drifts from resource_drift');
  const viaSdk = await detectDrift(input());
  t.same(summary(viaSdk.drifts), expected, 'the SDK path agrees');
  const versioning = (ds: DetectedDrift[]) => ds.find((d) => d.resourceType === 'aws_s3_bucket_versioning')!.diff;
  t.same(versioning(viaTofu.drifts), versioning(viaSdk.drifts), 'with the same diff');
});
