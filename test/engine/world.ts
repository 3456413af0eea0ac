// A small real cloud in moto for the detection engine's tests: resources created through the AWS
// SDK, a state v4 written from reading them back (as `terraform import` would), stored in an S3
// bucket, and a git repository whose HCL points its s3 backend at that bucket.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AuthorizeSecurityGroupIngressCommand, CreateSecurityGroupCommand, CreateTagsCommand, DescribeImagesCommand,
  DescribeInstancesCommand, DescribeSecurityGroupsCommand, EC2Client, RunInstancesCommand, type Instance, type SecurityGroup,
} from '@aws-sdk/client-ec2';
import {
  CreatePolicyCommand, CreateRoleCommand, GetPolicyCommand, GetRoleCommand, IAMClient,
} from '@aws-sdk/client-iam';
import {
  CreateBucketCommand, PutBucketEncryptionCommand, PutBucketTaggingCommand, PutBucketVersioningCommand, PutObjectCommand,
  PutPublicAccessBlockCommand, S3Client,
} from '@aws-sdk/client-s3';
import { ROOT } from '../../core/loader.ts';
import { renderPermissions } from '../../runner-agent/src/engine/cloud/aws/vpc/security-group-rules.ts';

export const REGION = 'us-east-1';
export const CREDENTIALS = { accessKeyId: 'testing', secretAccessKey: 'testing', region: REGION };

export function motoUrl(): string {
  if (process.env.DRIFT_MOTO_URL) return process.env.DRIFT_MOTO_URL;
  const file = join(process.env.DRIFT_DATA_DIR ?? join(ROOT, '.data'), 'services.json');
  const url = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { motoUrl?: string }).motoUrl : undefined;
  if (!url) throw new Error(`No motoUrl in ${file}: run "npx tsx scripts/services.ts up" (npm test does it for you)`);
  return url;
}

export function clients(endpoint = motoUrl()) {
  const cfg = { endpoint, region: REGION, credentials: CREDENTIALS };
  return { ec2: new EC2Client(cfg), s3: new S3Client({ ...cfg, forcePathStyle: true }), iam: new IAMClient(cfg), endpoint };
}
export type Clients = ReturnType<typeof clients>;

export const TRUST_POLICY = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] };
export const APP_POLICY = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: ['s3:GetObject'], Resource: ['arn:aws:s3:::data/*'] }] };

export interface World {
  suffix: string;
  c: Clients;
  ami: string;
  sgId: string;
  extraSgId: string;
  instanceId: string;
  bucket: string;
  stateBucket: string;
  stateKey: string;
  roleName: string;
  policyArn: string;
  repo: string;
  repoUrl: string;
  cleanup(): void;
}

/** The provider's rule shape, as the state stores ingress/egress. */
const rules = (g: SecurityGroup, egress = false) => renderPermissions(egress ? g.IpPermissionsEgress : g.IpPermissions, g.GroupId ?? '');
const tags = (t: { Key?: string; Value?: string }[] | undefined) => Object.fromEntries((t ?? []).map((x) => [x.Key, x.Value]));

export async function describeGroup(c: Clients, id: string): Promise<SecurityGroup> {
  const out = await c.ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [id] }));
  return out.SecurityGroups![0];
}

export async function describeInstance(c: Clients, id: string): Promise<Instance> {
  const out = await c.ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
  return out.Reservations![0].Instances![0];
}

export async function launchInstance(c: Clients, ami: string, sgId: string, suffix: string): Promise<string> {
  const out = await c.ec2.send(new RunInstancesCommand({
    ImageId: ami, MinCount: 1, MaxCount: 1, InstanceType: 't3.micro', SecurityGroupIds: [sgId],
    TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: 'Name', Value: `web-${suffix}` }, { Key: 'Env', Value: 'prod' }] }],
  }));
  return out.Instances![0].InstanceId!;
}

/** State v4 attributes, read back from the live resources in the provider's shapes (with its noisy computed fields). */
export async function buildState(w: Omit<World, 'cleanup' | 'repo' | 'repoUrl'>, serial = 1): Promise<Record<string, unknown>> {
  const { c } = w;
  const g = await describeGroup(c, w.sgId);
  const extra = await describeGroup(c, w.extraSgId);
  const i = await describeInstance(c, w.instanceId);
  const role = (await c.iam.send(new GetRoleCommand({ RoleName: w.roleName }))).Role!;
  const policy = (await c.iam.send(new GetPolicyCommand({ PolicyArn: w.policyArn }))).Policy!;
  const sgAttrs = (sg: SecurityGroup) => ({
    arn: sg.SecurityGroupArn, description: sg.Description, egress: rules(sg, true), id: sg.GroupId, ingress: rules(sg),
    name: sg.GroupName, name_prefix: '', owner_id: sg.OwnerId, revoke_rules_on_delete: false,
    tags: tags(sg.Tags), tags_all: tags(sg.Tags), timeouts: null, vpc_id: sg.VpcId,
  });
  const aws = 'provider["registry.terraform.io/hashicorp/aws"]';
  const res = (type: string, name: string, attributes: Record<string, unknown>, extraFields: Record<string, unknown> = {}) =>
    ({ mode: 'managed', type, name, provider: aws, ...extraFields, instances: [{ schema_version: 0, attributes, sensitive_attributes: [] }] });
  return {
    version: 4, terraform_version: '1.9.8', serial, lineage: `lineage-${w.suffix}`, outputs: {},
    resources: [
      res('aws_security_group', 'web', sgAttrs(g)),
      // The 443 rule is its own resource too (the group's state still lists it, as the provider does).
      res('aws_security_group_rule', 'https', {
        id: `sgrule-${w.suffix}`, type: 'ingress', security_group_id: w.sgId, protocol: 'tcp', from_port: 443, to_port: 443,
        cidr_blocks: ['10.1.0.0/16'], ipv6_cidr_blocks: null, prefix_list_ids: null, self: false, source_security_group_id: null,
        description: 'https', security_group_rule_id: 'sgr-x',
      }),
      { ...res('aws_security_group', 'extra', sgAttrs(extra), { module: 'module.net["a"]' }),
        instances: [{ index_key: 'a', schema_version: 1, attributes: sgAttrs(extra), sensitive_attributes: [] }] },
      res('aws_instance', 'web', {
        ami: i.ImageId, arn: `arn:aws:ec2:${REGION}:123456789012:instance/${i.InstanceId}`, associate_public_ip_address: true,
        availability_zone: i.Placement?.AvailabilityZone, cpu_core_count: 1, cpu_threads_per_core: 2, ebs_optimized: false,
        iam_instance_profile: '', id: i.InstanceId, instance_state: 'running', instance_type: i.InstanceType, key_name: '',
        monitoring: false, primary_network_interface_id: 'eni-12345678', private_dns: i.PrivateDnsName, private_ip: i.PrivateIpAddress,
        public_dns: i.PublicDnsName, public_ip: i.PublicIpAddress, root_block_device: [{ volume_size: 8 }], security_groups: [],
        source_dest_check: true, subnet_id: i.SubnetId, tags: tags(i.Tags), tags_all: tags(i.Tags), tenancy: 'default',
        vpc_security_group_ids: (i.SecurityGroups ?? []).map((s) => s.GroupId), user_data: null,
      }, { }),
      res('aws_s3_bucket', 'data', {
        arn: `arn:aws:s3:::${w.bucket}`, bucket: w.bucket, bucket_domain_name: `${w.bucket}.s3.amazonaws.com`, force_destroy: false,
        hosted_zone_id: 'Z3AQBSTGFYJSTF', id: w.bucket, object_lock_enabled: false, policy: '', region: REGION,
        server_side_encryption_configuration: [{ rule: [{ apply_server_side_encryption_by_default: [{ kms_master_key_id: '', sse_algorithm: 'AES256' }], bucket_key_enabled: false }] }],
        tags: { Team: 'data' }, tags_all: { Team: 'data' }, versioning: [{ enabled: true, mfa_delete: false }],
      }),
      res('aws_s3_bucket_versioning', 'data', { bucket: w.bucket, expected_bucket_owner: '', id: w.bucket, mfa: null, versioning_configuration: [{ mfa_delete: '', status: 'Enabled' }] }),
      res('aws_s3_bucket_server_side_encryption_configuration', 'data', {
        bucket: w.bucket, expected_bucket_owner: '', id: w.bucket,
        rule: [{ apply_server_side_encryption_by_default: [{ kms_master_key_id: '', sse_algorithm: 'AES256' }], bucket_key_enabled: false }],
      }),
      res('aws_s3_bucket_public_access_block', 'data', {
        bucket: w.bucket, id: w.bucket, block_public_acls: true, block_public_policy: true, ignore_public_acls: true, restrict_public_buckets: true,
      }),
      res('aws_iam_role', 'app', {
        arn: role.Arn, assume_role_policy: JSON.stringify(TRUST_POLICY), create_date: '2024-01-01T00:00:00Z', description: '',
        force_detach_policies: false, id: role.RoleName, inline_policy: [], managed_policy_arns: [], max_session_duration: 3600,
        name: role.RoleName, name_prefix: '', path: '/', permissions_boundary: '', tags: {}, tags_all: {}, unique_id: role.RoleId,
      }),
      res('aws_iam_policy', 'app', {
        // The same document written differently (a string for a one-element list, other key order): no drift.
        arn: policy.Arn, attachment_count: 0, description: '', id: policy.Arn, name: policy.PolicyName, name_prefix: '', path: '/',
        policy: JSON.stringify({ Statement: [{ Resource: 'arn:aws:s3:::data/*', Action: 's3:GetObject', Effect: 'Allow' }], Version: '2012-10-17' }),
        policy_id: policy.PolicyId, tags: {}, tags_all: {},
      }),
      res('aws_vpc', 'main', { id: g.VpcId, cidr_block: '172.31.0.0/16' }),
      // A type the engine has no reader for: counted in stats.unsupported, never read.
      res('aws_cloudtrail', 'audit', { id: `audit-${w.suffix}`, name: `audit-${w.suffix}` }),
      { mode: 'data', type: 'aws_caller_identity', name: 'current', provider: aws, instances: [{ schema_version: 0, attributes: { id: '123456789012' } }] },
    ],
    check_results: null,
  };
}

export async function putState(w: Pick<World, 'c' | 'stateBucket' | 'stateKey'>, state: unknown): Promise<void> {
  await w.c.s3.send(new PutObjectCommand({ Bucket: w.stateBucket, Key: w.stateKey, Body: JSON.stringify(state, null, 2) }));
}

export const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd, stdio: 'pipe' }).toString();

export function commitFile(repo: string, file: string, text: string, message = `update ${file}`): void {
  writeFileSync(join(repo, file), text);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}

const HCL = (w: { stateBucket: string; stateKey: string; bucket: string }) => `
terraform {
  backend "s3" {
    bucket = "${w.stateBucket}"
    key    = "${w.stateKey}"
    region = "${REGION}"
  }
}

provider "aws" {
  region = "${REGION}"
}

resource "aws_security_group" "web" {
  name        = "web"
  description = "web"
  ingress {
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/8"]
    description = "ssh"
  }
}

resource "aws_security_group_rule" "https" {
  type              = "ingress"
  security_group_id = aws_security_group.web.id
  protocol          = "tcp"
  from_port         = 443
  to_port           = 443
  cidr_blocks       = ["10.1.0.0/16"]
  description       = "https"
}

module "net" {
  source   = "./modules/net"
  for_each = toset(["a"])
}

resource "aws_instance" "web" {
  ami                    = "ami-placeholder"
  instance_type          = "t3.micro"
  vpc_security_group_ids = [aws_security_group.web.id]
  tags = { Name = "web", Env = "prod" }
}

resource "aws_s3_bucket" "data" {
  bucket = "${w.bucket}"
  tags   = { Team = "data" }
}

resource "aws_s3_bucket_versioning" "data" {
  bucket = aws_s3_bucket.data.id
  versioning_configuration { status = "Enabled" }
}

resource "aws_s3_bucket_server_side_encryption_configuration" "data" {
  bucket = aws_s3_bucket.data.id
  rule {
    apply_server_side_encryption_by_default { sse_algorithm = "AES256" }
  }
}

resource "aws_s3_bucket_public_access_block" "data" {
  bucket                  = aws_s3_bucket.data.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_iam_role" "app" {
  name               = "app"
  assume_role_policy = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Principal = { Service = "ec2.amazonaws.com" }, Action = "sts:AssumeRole" }] })
}

resource "aws_iam_policy" "app" {
  name   = "app"
  policy = jsonencode({ Version = "2012-10-17", Statement = [{ Effect = "Allow", Action = "s3:GetObject", Resource = "arn:aws:s3:::data/*" }] })
}
`;

/** Creates the resources, the state object and the git repository. */
export async function createWorld(): Promise<World> {
  const c = clients();
  const suffix = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const ami = (await c.ec2.send(new DescribeImagesCommand({}))).Images![0].ImageId!;
  const sgId = (await c.ec2.send(new CreateSecurityGroupCommand({ GroupName: `web-${suffix}`, Description: 'web' }))).GroupId!;
  await c.ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: sgId, IpPermissions: [
    { IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '10.0.0.0/8', Description: 'ssh' }] },
    { IpProtocol: 'tcp', FromPort: 443, ToPort: 443, IpRanges: [{ CidrIp: '10.1.0.0/16', Description: 'https' }] },
  ] }));
  const extraSgId = (await c.ec2.send(new CreateSecurityGroupCommand({ GroupName: `extra-${suffix}`, Description: 'extra' }))).GroupId!;
  await c.ec2.send(new CreateTagsCommand({ Resources: [extraSgId], Tags: [{ Key: 'Env', Value: 'prod' }] }));
  const instanceId = await launchInstance(c, ami, sgId, suffix);

  const bucket = `data-${suffix}`;
  await c.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await c.s3.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  await c.s3.send(new PutBucketEncryptionCommand({ Bucket: bucket, ServerSideEncryptionConfiguration: { Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] } }));
  await c.s3.send(new PutPublicAccessBlockCommand({ Bucket: bucket, PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true } }));
  await c.s3.send(new PutBucketTaggingCommand({ Bucket: bucket, Tagging: { TagSet: [{ Key: 'Team', Value: 'data' }] } }));

  const roleName = `app-${suffix}`;
  await c.iam.send(new CreateRoleCommand({ RoleName: roleName, AssumeRolePolicyDocument: JSON.stringify(TRUST_POLICY) }));
  const policyArn = (await c.iam.send(new CreatePolicyCommand({ PolicyName: `app-${suffix}`, PolicyDocument: JSON.stringify(APP_POLICY) }))).Policy!.Arn!;

  const stateBucket = `tfstate-${suffix}`;
  const stateKey = 'env/prod/terraform.tfstate';
  await c.s3.send(new CreateBucketCommand({ Bucket: stateBucket }));
  const base = { suffix, c, ami, sgId, extraSgId, instanceId, bucket, stateBucket, stateKey, roleName, policyArn };
  await putState(base, await buildState(base));

  const repo = mkdtempSync(join(tmpdir(), 'drift-engine-repo-'));
  git(repo, 'init', '-q', '-b', 'main');
  mkdirSync(join(repo, 'infra', 'modules', 'net'), { recursive: true });
  writeFileSync(join(repo, 'infra', 'modules', 'net', 'main.tf'), 'resource "aws_security_group" "extra" {\n  name = "extra"\n  tags = { Env = "prod" }\n}\n');
  writeFileSync(join(repo, 'README.md'), '# infra\n');
  commitFile(repo, join('infra', 'main.tf'), HCL({ stateBucket, stateKey, bucket }), 'infra');
  return { ...base, repo, repoUrl: `file://${repo}`, cleanup: () => rmSync(repo, { recursive: true, force: true }) };
}
