// The readers benchmark's mixed estate: `max` real resources of the issue #11 types in moto
// (network, storage, keys, queues, topics, tables, log groups, IAM), each with its state
// attributes in the provider's shape. Proportions per kind below; creations 8 at a time.
import {
  AllocateAddressCommand, AssociateRouteTableCommand, AttachInternetGatewayCommand, CreateInternetGatewayCommand, CreateKeyPairCommand,
  CreateLaunchTemplateCommand, CreateNetworkInterfaceCommand, CreateRouteCommand, CreateRouteTableCommand, CreateSubnetCommand, CreateVolumeCommand,
  CreateVpcCommand, DescribeImagesCommand, EC2Client,
} from '@aws-sdk/client-ec2';
import { CloudWatchLogsClient, CreateLogGroupCommand } from '@aws-sdk/client-cloudwatch-logs';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateRepositoryCommand, ECRClient } from '@aws-sdk/client-ecr';
import { CreateGroupCommand, CreateUserCommand, IAMClient } from '@aws-sdk/client-iam';
import { CreateKeyCommand, GetKeyPolicyCommand, KMSClient } from '@aws-sdk/client-kms';
import { CreateTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mapLimit } from '../../runner-agent/src/engine/tools.ts';
import type { Res } from '../../test/engine/estate-network.ts';

const SHARE: Record<string, number> = {
  subnet: 0.15, routeTable: 0.1, route: 0.05, association: 0.05, igw: 0.04, eip: 0.05, eni: 0.05, volume: 0.1, keyPair: 0.05, launchTemplate: 0.03,
  logGroup: 0.08, queue: 0.05, topic: 0.05, table: 0.03, kmsKey: 0.03, user: 0.04, group: 0.02, repo: 0.03,
};
const range = (n: number) => [...Array(n).keys()];
const R = 'us-east-1';

async function retry<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try { return await fn(); } catch (e) {
      if (attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 300 * attempt));
    }
  }
}

/** What each part of the mixed estate builds with: the client config, a kind's count, where its resources go, a runner of n creations. */
interface Builder {
  cfg: { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string } };
  count: (k: string) => number;
  put: (k: string, list: Res[]) => void;
  go: <T>(n: number, fn: (i: number) => Promise<T>) => Promise<T[]>;
}

export async function buildMixed(endpoint: string, max: number, log: (s: string) => void): Promise<Record<string, Res[]>> {
  const kinds: Record<string, Res[]> = {};
  const b: Builder = {
    cfg: { endpoint, region: R, credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' } },
    count: (k) => Math.round(max * SHARE[k]),
    put: (k, list) => { kinds[k] = list; log(`  ${k}: ${list.length}`); },
    go: (n, fn) => mapLimit(range(n), 8, (i) => retry(() => fn(i))),
  };
  await buildNetwork(b);
  await buildServices(b);
  return kinds;
}

/** EC2: VPCs, subnets, route tables and routes, associations, gateways, addresses, interfaces, volumes, key pairs, launch templates. */
async function buildNetwork({ cfg, count, put, go }: Builder): Promise<void> {
  const ec2 = new EC2Client(cfg);

  // VPCs of 250 /24 subnets each, one attached internet gateway per VPC.
  const nVpc = Math.max(1, Math.ceil(count('subnet') / 250));
  const vpcs = await go(nVpc, async (v) => {
    const vpc = (await ec2.send(new CreateVpcCommand({ CidrBlock: `10.${v}.0.0/16` }))).Vpc!;
    const igw = (await ec2.send(new CreateInternetGatewayCommand({}))).InternetGateway!;
    await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw.InternetGatewayId, VpcId: vpc.VpcId }));
    return { id: vpc.VpcId!, igw: igw.InternetGatewayId! };
  });
  const subnets = await go(count('subnet'), async (i) => {
    const v = vpcs[Math.floor(i / 250)];
    const s = (await ec2.send(new CreateSubnetCommand({ VpcId: v.id, CidrBlock: `10.${Math.floor(i / 250)}.${i % 250}.0/24`, AvailabilityZone: 'us-east-1a' }))).Subnet!;
    return { vpc: v, res: { type: 'aws_subnet', name: `s${i}`, attributes: {
      id: s.SubnetId, arn: s.SubnetArn, vpc_id: v.id, cidr_block: s.CidrBlock, availability_zone: 'us-east-1a', map_public_ip_on_launch: false,
      assign_ipv6_address_on_creation: false, ipv6_cidr_block: '', tags: {}, tags_all: {},
    } } };
  });
  put('subnet', subnets.map((s) => s.res));
  const tables = await go(count('routeTable'), async (i) => {
    const v = vpcs[i % vpcs.length];
    const rt = (await ec2.send(new CreateRouteTableCommand({ VpcId: v.id }))).RouteTable!;
    return { id: rt.RouteTableId!, vpc: v };
  });
  const nRoute = count('route');
  await go(nRoute, (i) => ec2.send(new CreateRouteCommand({ RouteTableId: tables[i].id, DestinationCidrBlock: '10.250.0.0/16', GatewayId: tables[i].vpc.igw })));
  const routeEl = (gw: string) => ({ cidr_block: '10.250.0.0/16', ipv6_cidr_block: '', gateway_id: gw, nat_gateway_id: '', network_interface_id: '', transit_gateway_id: '', vpc_peering_connection_id: '' });
  put('routeTable', tables.map((t, i) => ({ type: 'aws_route_table', name: `rt${i}`, attributes: {
    id: t.id, vpc_id: t.vpc.id, route: i < nRoute ? [routeEl(t.vpc.igw)] : [], propagating_vgws: [], tags: {}, tags_all: {},
  } })));
  put('route', tables.slice(0, nRoute).map((t, i) => ({ type: 'aws_route', name: `r${i}`, attributes: {
    id: `r-${t.id}1080289494`, route_table_id: t.id, destination_cidr_block: '10.250.0.0/16', gateway_id: t.vpc.igw, nat_gateway_id: '', network_interface_id: '',
  } })));
  // Each association pairs a table with a subnet of the same VPC.
  const assocs = await go(count('association'), async (i) => {
    const t = tables[i];
    const s = subnets.find((x, k) => x.vpc.id === t.vpc.id && k % tables.length === i % tables.length) ?? subnets.filter((x) => x.vpc.id === t.vpc.id)[i % 250];
    const out = await ec2.send(new AssociateRouteTableCommand({ RouteTableId: t.id, SubnetId: String(s.res.attributes.id) }));
    return { type: 'aws_route_table_association', name: `a${i}`, attributes: { id: out.AssociationId, route_table_id: t.id, subnet_id: s.res.attributes.id, gateway_id: '' } };
  });
  put('association', assocs);
  const igws = await go(count('igw'), async (i) => {
    const g = (await ec2.send(new CreateInternetGatewayCommand({}))).InternetGateway!;
    return { type: 'aws_internet_gateway', name: `g${i}`, attributes: { id: g.InternetGatewayId, vpc_id: '', owner_id: g.OwnerId, tags: {}, tags_all: {} } };
  });
  put('igw', igws);
  put('eip', await go(count('eip'), async (i) => {
    const e = await ec2.send(new AllocateAddressCommand({ Domain: 'vpc' }));
    return { type: 'aws_eip', name: `e${i}`, attributes: { id: e.AllocationId, allocation_id: e.AllocationId, public_ip: e.PublicIp, domain: 'vpc', instance: '', network_interface: '', tags: {}, tags_all: {} } };
  }));
  put('eni', await go(count('eni'), async (i) => {
    const s = subnets[i % subnets.length].res.attributes;
    const n = (await ec2.send(new CreateNetworkInterfaceCommand({ SubnetId: String(s.id) }))).NetworkInterface!;
    return { type: 'aws_network_interface', name: `n${i}`, attributes: {
      id: n.NetworkInterfaceId, subnet_id: s.id, description: '', private_ip: n.PrivateIpAddress, private_ips: [n.PrivateIpAddress],
      security_groups: (n.Groups ?? []).map((g) => g.GroupId), source_dest_check: true, attachment: [], tags: {}, tags_all: {},
    } };
  }));
  put('volume', await go(count('volume'), async (i) => {
    const v = await ec2.send(new CreateVolumeCommand({ AvailabilityZone: 'us-east-1a', Size: 8, VolumeType: 'gp3' }));
    return { type: 'aws_ebs_volume', name: `v${i}`, attributes: {
      id: v.VolumeId, availability_zone: 'us-east-1a', size: 8, type: 'gp3', iops: v.Iops, throughput: v.Throughput, encrypted: false, kms_key_id: '', snapshot_id: '', tags: {}, tags_all: {},
    } };
  }));
  put('keyPair', await go(count('keyPair'), async (i) => {
    const k = await ec2.send(new CreateKeyPairCommand({ KeyName: `bench-${i}` }));
    return { type: 'aws_key_pair', name: `k${i}`, attributes: { id: k.KeyName, key_name: k.KeyName, key_pair_id: k.KeyPairId, fingerprint: k.KeyFingerprint, tags: {}, tags_all: {} } };
  }));
  const ami = (await ec2.send(new DescribeImagesCommand({}))).Images![0].ImageId!;
  put('launchTemplate', await go(count('launchTemplate'), async (i) => {
    const t = (await ec2.send(new CreateLaunchTemplateCommand({ LaunchTemplateName: `bench-${i}`, LaunchTemplateData: { ImageId: ami, InstanceType: 't3.micro' } }))).LaunchTemplate!;
    return { type: 'aws_launch_template', name: `lt${i}`, attributes: {
      id: t.LaunchTemplateId, name: `bench-${i}`, default_version: 1, latest_version: 1, image_id: ami, instance_type: 't3.micro', description: '', key_name: '', user_data: '',
      vpc_security_group_ids: [], tags: {}, tags_all: {},
    } };
  }));
  ec2.destroy();
}

/** The other services: log groups, queues, topics, tables, KMS keys, IAM users and groups, ECR repositories. */
async function buildServices({ cfg, count, put, go }: Builder): Promise<void> {
  const logs = new CloudWatchLogsClient(cfg);
  put('logGroup', await go(count('logGroup'), async (i) => {
    await logs.send(new CreateLogGroupCommand({ logGroupName: `/bench/${i}` }));
    return { type: 'aws_cloudwatch_log_group', name: `l${i}`, attributes: { id: `/bench/${i}`, name: `/bench/${i}`, retention_in_days: 0, kms_key_id: '', tags: {}, tags_all: {} } };
  }));
  const sqs = new SQSClient(cfg);
  put('queue', await go(count('queue'), async (i) => {
    const url = (await sqs.send(new CreateQueueCommand({ QueueName: `bench-${i}` }))).QueueUrl!;
    return { type: 'aws_sqs_queue', name: `q${i}`, attributes: { id: url, url, name: `bench-${i}`, fifo_queue: false, visibility_timeout_seconds: 30, delay_seconds: 0, policy: '', tags: {}, tags_all: {} } };
  }));
  const sns = new SNSClient(cfg);
  put('topic', await go(count('topic'), async (i) => {
    const arn = (await sns.send(new CreateTopicCommand({ Name: `bench-${i}` }))).TopicArn!;
    return { type: 'aws_sns_topic', name: `t${i}`, attributes: { id: arn, arn, name: `bench-${i}`, display_name: '', kms_master_key_id: '', fifo_topic: false, tags: {}, tags_all: {} } };
  }));
  const ddb = new DynamoDBClient(cfg);
  put('table', await go(count('table'), async (i) => {
    await ddb.send(new CreateTableCommand({ TableName: `bench-${i}`, BillingMode: 'PAY_PER_REQUEST', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }] }));
    return { type: 'aws_dynamodb_table', name: `d${i}`, attributes: {
      id: `bench-${i}`, name: `bench-${i}`, billing_mode: 'PAY_PER_REQUEST', hash_key: 'pk', attribute: [{ name: 'pk', type: 'S' }], point_in_time_recovery: [{ enabled: false }], tags: {}, tags_all: {},
    } };
  }));
  const kms = new KMSClient(cfg);
  put('kmsKey', await go(count('kmsKey'), async (i) => {
    const k = (await kms.send(new CreateKeyCommand({ Description: `bench ${i}` }))).KeyMetadata!;
    const policy = (await kms.send(new GetKeyPolicyCommand({ KeyId: k.KeyId, PolicyName: 'default' }))).Policy;
    return { type: 'aws_kms_key', name: `k${i}`, attributes: { id: k.KeyId, key_id: k.KeyId, arn: k.Arn, description: `bench ${i}`, is_enabled: true, enable_key_rotation: false, policy, tags: {}, tags_all: {} } };
  }));
  const iam = new IAMClient(cfg);
  put('user', await go(count('user'), async (i) => {
    await iam.send(new CreateUserCommand({ UserName: `bench-${i}` }));
    return { type: 'aws_iam_user', name: `u${i}`, attributes: { id: `bench-${i}`, name: `bench-${i}`, path: '/', permissions_boundary: '', tags: {}, tags_all: {} } };
  }));
  put('group', await go(count('group'), async (i) => {
    await iam.send(new CreateGroupCommand({ GroupName: `bench-${i}` }));
    return { type: 'aws_iam_group', name: `g${i}`, attributes: { id: `bench-${i}`, name: `bench-${i}`, path: '/' } };
  }));
  const ecr = new ECRClient(cfg);
  put('repo', await go(count('repo'), async (i) => {
    await ecr.send(new CreateRepositoryCommand({ repositoryName: `bench-${i}` }));
    return { type: 'aws_ecr_repository', name: `c${i}`, attributes: { id: `bench-${i}`, name: `bench-${i}`, image_tag_mutability: 'MUTABLE', tags: {}, tags_all: {} } };
  }));
  for (const c of [logs, sqs, sns, ddb, kms, iam, ecr]) c.destroy();
}
