// The demo's world: real resources in moto (a security group, an S3 bucket with versioning, an
// EC2 instance), and a local git repository with the HCL and the Terraform state that declare
// them. The demo (scripts/demo.ts) creates it, changes it out of band and scans it; --remove
// deletes it. What one run created is kept in <dir>/world.json so the next run replaces it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  AuthorizeSecurityGroupIngressCommand, CreateSecurityGroupCommand, DeleteSecurityGroupCommand, DescribeImagesCommand,
  DescribeInstancesCommand, DescribeSecurityGroupsCommand, EC2Client, RunInstancesCommand, TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { CreateBucketCommand, DeleteBucketCommand, PutBucketVersioningCommand, S3Client } from '@aws-sdk/client-s3';
import { renderPermissions } from '../../runner-agent/src/engine/tools.ts';

export const REGION = 'us-east-1';
export const CLOUD = { accessKeyId: 'demo', secretAccessKey: 'demo', region: REGION };
export interface World { suffix: string; sgId: string; instanceId: string; bucket: string }
const worldFile = (dir: string) => path.join(dir, 'world.json');
/** The demo's git repository, under the demo's folder. */
export const gitDir = (dir: string) => path.join(dir, 'repo');

export function aws(motoUrl: string) {
  const cfg = { endpoint: motoUrl, region: REGION, credentials: CLOUD };
  return { ec2: new EC2Client(cfg), s3: new S3Client({ ...cfg, forcePathStyle: true }) };
}

/** Deletes the previous run's cloud resources (each step tolerates one already gone). */
export async function removeWorld(motoUrl: string, dir: string): Promise<void> {
  if (!existsSync(worldFile(dir))) return;
  const w = JSON.parse(readFileSync(worldFile(dir), 'utf8')) as World;
  const { ec2, s3 } = aws(motoUrl);
  await ec2.send(new TerminateInstancesCommand({ InstanceIds: [w.instanceId] })).catch(() => undefined);
  await ec2.send(new DeleteSecurityGroupCommand({ GroupId: w.sgId })).catch(() => undefined);
  await s3.send(new DeleteBucketCommand({ Bucket: w.bucket })).catch(() => undefined);
  rmSync(worldFile(dir), { force: true });
}

const tags = (t: { Key?: string; Value?: string }[] | undefined) => Object.fromEntries((t ?? []).map((x) => [x.Key, x.Value]));

/** Resources in moto, then the HCL and the state (v4, read back from them, as an import would) in a git repository. */
export async function createWorld(motoUrl: string, dir: string): Promise<World> {
  const { ec2, s3 } = aws(motoUrl);
  const suffix = Date.now().toString(36);
  const sgId = (await ec2.send(new CreateSecurityGroupCommand({ GroupName: `demo-web-${suffix}`, Description: 'demo web' }))).GroupId!;
  await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: sgId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '10.0.0.0/8', Description: 'ssh' }] }] }));
  const ami = (await ec2.send(new DescribeImagesCommand({}))).Images![0].ImageId!;
  const instanceId = (await ec2.send(new RunInstancesCommand({
    ImageId: ami, MinCount: 1, MaxCount: 1, InstanceType: 't3.micro', SecurityGroupIds: [sgId],
    TagSpecifications: [{ ResourceType: 'instance', Tags: [{ Key: 'Name', Value: 'demo-web' }] }],
  }))).Instances![0].InstanceId!;
  const bucket = `demo-data-${suffix}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await s3.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  const world = { suffix, sgId, instanceId, bucket };
  mkdirSync(dir, { recursive: true });
  writeFileSync(worldFile(dir), `${JSON.stringify(world, null, 2)}\n`);
  await writeRepository(ec2, world, gitDir(dir));
  return world;
}

/** The HCL and the v4 state of the world, read back from moto, committed to the git repository at `repo`. */
async function writeRepository(ec2: EC2Client, { suffix, sgId, instanceId, bucket }: World, repo: string): Promise<void> {
  const g = (await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [sgId] }))).SecurityGroups![0];
  const i = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }))).Reservations![0].Instances![0];
  const aws_ = 'provider["registry.terraform.io/hashicorp/aws"]';
  const res = (type: string, name: string, attributes: Record<string, unknown>) =>
    ({ mode: 'managed', type, name, provider: aws_, instances: [{ schema_version: 0, attributes, sensitive_attributes: [] }] });
  const state = {
    version: 4, terraform_version: '1.9.8', serial: 1, lineage: `demo-${suffix}`, outputs: {},
    resources: [
      res('aws_security_group', 'web', {
        arn: g.SecurityGroupArn, description: g.Description, egress: renderPermissions(g.IpPermissionsEgress, sgId), id: sgId,
        ingress: renderPermissions(g.IpPermissions, sgId), name: g.GroupName, name_prefix: '', owner_id: g.OwnerId,
        revoke_rules_on_delete: false, tags: tags(g.Tags), tags_all: tags(g.Tags), vpc_id: g.VpcId,
      }),
      res('aws_instance', 'web', {
        ami: i.ImageId, id: instanceId, instance_type: i.InstanceType, availability_zone: i.Placement?.AvailabilityZone,
        subnet_id: i.SubnetId, private_ip: i.PrivateIpAddress, tags: tags(i.Tags), tags_all: tags(i.Tags),
        vpc_security_group_ids: (i.SecurityGroups ?? []).map((s) => s.GroupId),
      }),
      res('aws_s3_bucket', 'data', { arn: `arn:aws:s3:::${bucket}`, bucket, id: bucket, region: REGION, tags: {}, tags_all: {} }),
      res('aws_s3_bucket_versioning', 'data', { bucket, expected_bucket_owner: '', id: bucket, mfa: null, versioning_configuration: [{ mfa_delete: '', status: 'Enabled' }] }),
    ],
  };
  const hcl = `provider "aws" {
  region = "${REGION}"
}

resource "aws_security_group" "web" {
  name        = "${g.GroupName}"
  description = "demo web"
  ingress {
    from_port   = 22
    to_port     = 22
    protocol    = "tcp"
    cidr_blocks = ["10.0.0.0/8"]
    description = "ssh"
  }
}

resource "aws_instance" "web" {
  ami                    = "${i.ImageId}"
  instance_type          = "t3.micro"
  vpc_security_group_ids = [aws_security_group.web.id]
  tags                   = { Name = "demo-web" }
}

resource "aws_s3_bucket" "data" {
  bucket = "${bucket}"
}

resource "aws_s3_bucket_versioning" "data" {
  bucket = aws_s3_bucket.data.id
  versioning_configuration { status = "Enabled" }
}
`;
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Drift demo', '-c', 'user.email=demo@drift.local', ...args], { cwd: repo, stdio: 'pipe' });
  if (!existsSync(path.join(repo, '.git'))) {
    mkdirSync(repo, { recursive: true });
    git('init', '-q', '-b', 'main');
  }
  mkdirSync(path.join(repo, 'infra'), { recursive: true });
  writeFileSync(path.join(repo, 'infra', 'main.tf'), hcl);
  // No backend block: the state is the default local terraform.tfstate beside the .tf files.
  writeFileSync(path.join(repo, 'infra', 'terraform.tfstate'), `${JSON.stringify(state, null, 2)}\n`);
  git('add', '-A');
  git('commit', '-q', '--allow-empty', '-m', `demo infrastructure ${suffix}`);
}

