// Issue 33 readers against moto: resources created with the SDK, the state Terraform would hold
// for them read clean, then out-of-band changes come back as drifts with their severities.
// (The fleet types and VPC endpoints are covered by the replay tests; moto's autoscaling and
// endpoint answers lack fields the provider stores.)
import { createHash, randomBytes } from 'node:crypto';
import t from 'tap';
import { IGNORED_ATTRIBUTES } from '../../../runner-agent/src/engine/catalogue.ts';
import {
  CreateNetworkAclCommand, CreateNetworkAclEntryCommand, CreateSubnetCommand, CreateVpcCommand, DescribeNetworkAclsCommand,
  ReplaceNetworkAclAssociationCommand, ReplaceNetworkAclEntryCommand,
} from '@aws-sdk/client-ec2';
import { CreateFileSystemCommand, CreateMountTargetCommand, DeleteMountTargetCommand, EFSClient, PutLifecycleConfigurationCommand } from '@aws-sdk/client-efs';
import {
  CreateBucketCommand, DeleteBucketLifecycleCommand, DeleteBucketWebsiteCommand, GetBucketAclCommand, PutBucketAclCommand, PutBucketCorsCommand,
  PutBucketLifecycleConfigurationCommand, PutBucketWebsiteCommand, PutObjectCommand,
} from '@aws-sdk/client-s3';
import { AwsContext } from '../../../runner-agent/src/engine/cloud/aws/index.ts';
import { compareLive } from '../../../runner-agent/src/engine/compare.ts';
import { buildIgnoreRules } from '../../../runner-agent/src/engine/ignore.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { clients, CREDENTIALS, REGION } from '../world.ts';

const c = clients();
const efs = new EFSClient({ endpoint: c.endpoint, region: REGION, credentials: CREDENTIALS });
const suffix = randomBytes(4).toString('hex');
const inst = (type: string, name: string, attributes: Record<string, unknown>): StateInstance => ({ address: `${type}.${name}`, type, name, attributes });

async function scan(state: StateInstance[]) {
  const aws = new AwsContext(CREDENTIALS, REGION, c.endpoint);
  try {
    return await compareLive(state.map((instance) => ({ instance, region: REGION })), aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
  } finally {
    aws.destroy();
  }
}
const byAddress = (drifts: { resourceAddress: string }[]) => Object.fromEntries(drifts.map((d) => [d.resourceAddress, d]));

t.test('network ACL, its rule and association: clean, then opened to the world on 22', async (t) => {
  const octet = 16 + (parseInt(suffix.slice(0, 2), 16) % 200);
  const vpc = (await c.ec2.send(new CreateVpcCommand({ CidrBlock: `10.${octet}.0.0/16` }))).Vpc!.VpcId!;
  const subnet = (await c.ec2.send(new CreateSubnetCommand({ VpcId: vpc, CidrBlock: `10.${octet}.1.0/24` }))).Subnet!.SubnetId!;
  const acl = (await c.ec2.send(new CreateNetworkAclCommand({ VpcId: vpc }))).NetworkAcl!.NetworkAclId!;
  await c.ec2.send(new CreateNetworkAclEntryCommand({ NetworkAclId: acl, RuleNumber: 100, Egress: false, Protocol: '6', RuleAction: 'allow', CidrBlock: '10.0.0.0/8', PortRange: { From: 443, To: 443 } }));
  await c.ec2.send(new CreateNetworkAclEntryCommand({ NetworkAclId: acl, RuleNumber: 100, Egress: true, Protocol: '-1', RuleAction: 'allow', CidrBlock: '0.0.0.0/0' }));
  const current = (await c.ec2.send(new DescribeNetworkAclsCommand({ Filters: [{ Name: 'association.subnet-id', Values: [subnet] }] }))).NetworkAcls![0]!;
  const old = current.Associations!.find((a) => a.SubnetId === subnet)!.NetworkAclAssociationId!;
  const assoc = (await c.ec2.send(new ReplaceNetworkAclAssociationCommand({ AssociationId: old, NetworkAclId: acl }))).NewAssociationId!;
  const state = [
    inst('aws_network_acl', 'a', { id: acl, vpc_id: vpc, subnet_ids: [subnet], tags: {}, egress: [],
      ingress: [{ action: 'allow', cidr_block: '10.0.0.0/8', from_port: 443, to_port: 443, icmp_code: 0, icmp_type: 0, ipv6_cidr_block: '', protocol: 'tcp', rule_no: 100 }] }),
    inst('aws_network_acl_rule', 'out', { id: 'nacl-1', network_acl_id: acl, rule_number: 100, egress: true, protocol: '-1', rule_action: 'allow', cidr_block: '0.0.0.0/0', from_port: 0, to_port: 0 }),
    inst('aws_network_acl_association', 'a', { id: assoc, network_acl_id: acl, subnet_id: subnet }),
  ];
  const clean = await scan(state);
  t.same(clean.drifts, [], 'the state as Terraform writes it reads clean');
  t.equal(clean.compared, 3);

  await c.ec2.send(new CreateNetworkAclEntryCommand({ NetworkAclId: acl, RuleNumber: 90, Egress: false, Protocol: '6', RuleAction: 'allow', CidrBlock: '0.0.0.0/0', PortRange: { From: 22, To: 22 } }));
  await c.ec2.send(new ReplaceNetworkAclEntryCommand({ NetworkAclId: acl, RuleNumber: 100, Egress: true, Protocol: '-1', RuleAction: 'deny', CidrBlock: '0.0.0.0/0' }));
  const d = byAddress((await scan(state)).drifts);
  t.same(Object.keys(d).sort(), ['aws_network_acl.a', 'aws_network_acl_rule.out']);
  t.match(d['aws_network_acl.a'], { severity: 'critical', ruleId: 'nacl-ssh-rdp-open-to-world', diff: [{ attribute: 'ingress' }] });
  t.match(d['aws_network_acl_rule.out'], { severity: 'high', ruleId: 'nacl-rule-changed', diff: [{ attribute: 'rule_action', after: 'deny' }] });
});

t.test('S3 bucket ACL, website, CORS, lifecycle and an object: clean, then made public, website and lifecycle removed, object replaced', async (t) => {
  const bucket = `issue33-${suffix}`;
  await c.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await c.s3.send(new PutBucketAclCommand({ Bucket: bucket, ACL: 'private' }));
  await c.s3.send(new PutBucketWebsiteCommand({ Bucket: bucket, WebsiteConfiguration: { IndexDocument: { Suffix: 'index.html' }, ErrorDocument: { Key: 'error.html' } } }));
  await c.s3.send(new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: { CORSRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['https://example.com'], MaxAgeSeconds: 300 }] } }));
  await c.s3.send(new PutBucketLifecycleConfigurationCommand({ Bucket: bucket, LifecycleConfiguration: { Rules: [
    { ID: 'logs', Status: 'Enabled', Filter: { Prefix: 'logs/' }, Expiration: { Days: 30 } },
  ] } }));
  await c.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'index.html', Body: 'hello', ContentType: 'text/html' }));
  const owner = (await c.s3.send(new GetBucketAclCommand({ Bucket: bucket }))).Owner!;
  const state = [
    inst('aws_s3_bucket_acl', 'b', { id: `${bucket},private`, bucket, acl: 'private', expected_bucket_owner: '', access_control_policy: [{
      grant: [{ grantee: [{ display_name: owner.DisplayName ?? '', email_address: '', id: owner.ID, type: 'CanonicalUser', uri: '' }], permission: 'FULL_CONTROL' }],
      owner: [{ display_name: owner.DisplayName ?? '', id: owner.ID }],
    }] }),
    inst('aws_s3_bucket_website_configuration', 'b', { id: bucket, bucket, index_document: [{ suffix: 'index.html' }], error_document: [{ key: 'error.html' }],
      redirect_all_requests_to: [], routing_rule: [], routing_rules: '', website_endpoint: 'x', website_domain: 'y', expected_bucket_owner: '' }),
    inst('aws_s3_bucket_cors_configuration', 'b', { id: bucket, bucket, cors_rule: [{ allowed_headers: [], allowed_methods: ['GET'], allowed_origins: ['https://example.com'], expose_headers: [], id: '', max_age_seconds: 300 }] }),
    inst('aws_s3_bucket_lifecycle_configuration', 'b', { id: bucket, bucket, rule: [{ id: 'logs', status: 'Enabled', prefix: '', abort_incomplete_multipart_upload: [],
      expiration: [{ days: 30, date: null, expired_object_delete_marker: false }], filter: [{ prefix: 'logs/', and: [], tag: [], object_size_greater_than: null, object_size_less_than: null }],
      noncurrent_version_expiration: [], noncurrent_version_transition: [], transition: [] }] }),
    inst('aws_s3_object', 'index', { id: 'index.html', bucket, key: 'index.html', source: 'site/index.html', content_type: 'text/html', etag: createHash('md5').update('hello').digest('hex'),
      cache_control: '', content_disposition: '', content_encoding: '', content_language: '', metadata: {}, storage_class: 'STANDARD', website_redirect: '', kms_key_id: null }),
  ];
  const clean = await scan(state);
  t.same(clean.drifts, [], 'the state as Terraform writes it reads clean');
  t.equal(clean.compared, 5);

  await c.s3.send(new PutBucketAclCommand({ Bucket: bucket, ACL: 'public-read' }));
  await c.s3.send(new DeleteBucketWebsiteCommand({ Bucket: bucket }));
  await c.s3.send(new DeleteBucketLifecycleCommand({ Bucket: bucket }));
  await c.s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'index.html', Body: 'defaced', ContentType: 'text/html' }));
  const d = byAddress((await scan(state)).drifts);
  t.same(Object.keys(d).sort(), ['aws_s3_bucket_acl.b', 'aws_s3_bucket_lifecycle_configuration.b', 'aws_s3_bucket_website_configuration.b', 'aws_s3_object.index']);
  t.match(d['aws_s3_bucket_acl.b'], { severity: 'critical', ruleId: 's3-acl-public' });
  t.match(d['aws_s3_bucket_website_configuration.b'], { changeType: 'deleted', severity: 'high', ruleId: 's3-website-changed' });
  t.match(d['aws_s3_bucket_lifecycle_configuration.b'], { changeType: 'deleted', severity: 'high', ruleId: 's3-lifecycle-deleted' });
  t.match(d['aws_s3_object.index'], { changeType: 'changed', diff: [{ attribute: 'etag', after: createHash('md5').update('defaced').digest('hex') }] });
});

t.test('EFS file system and mount target: clean, then lifecycle policy added and the mount target deleted', async (t) => {
  const vpc = (await c.ec2.send(new CreateVpcCommand({ CidrBlock: '10.250.0.0/16' }))).Vpc!.VpcId!;
  const subnet = (await c.ec2.send(new CreateSubnetCommand({ VpcId: vpc, CidrBlock: '10.250.1.0/24' }))).Subnet!.SubnetId!;
  const fs = await efs.send(new CreateFileSystemCommand({ CreationToken: `issue33-${suffix}`, PerformanceMode: 'generalPurpose', Encrypted: false, Tags: [{ Key: 'Name', Value: 'shared' }] }));
  const mt = await efs.send(new CreateMountTargetCommand({ FileSystemId: fs.FileSystemId!, SubnetId: subnet }));
  const state = [
    inst('aws_efs_file_system', 'fs', { id: fs.FileSystemId, creation_token: `issue33-${suffix}`, encrypted: false, kms_key_id: '', performance_mode: 'generalPurpose',
      throughput_mode: fs.ThroughputMode ?? 'bursting', provisioned_throughput_in_mibps: 0, lifecycle_policy: [], tags: { Name: 'shared' }, tags_all: { Name: 'shared' } }),
    inst('aws_efs_mount_target', 'a', { id: mt.MountTargetId, file_system_id: fs.FileSystemId, subnet_id: subnet, ip_address: mt.IpAddress }),
  ];
  const clean = await scan(state);
  t.same(clean.drifts, [], 'the state as Terraform writes it reads clean');
  await efs.send(new PutLifecycleConfigurationCommand({ FileSystemId: fs.FileSystemId!, LifecyclePolicies: [{ TransitionToIA: 'AFTER_7_DAYS' }] }));
  await efs.send(new DeleteMountTargetCommand({ MountTargetId: mt.MountTargetId! }));
  const d = byAddress((await scan(state)).drifts);
  t.match(d['aws_efs_file_system.fs'], { severity: 'high', ruleId: 'efs-encryption-or-policy-changed', diff: [{ attribute: 'lifecycle_policy' }] });
  t.match(d['aws_efs_mount_target.a'], { changeType: 'deleted' });
});
