// One resource (or two) of every type Cloud Discovery lists beyond the first 13, in a private
// moto (us-east-1 and the global services), for list-modes.test.ts.
import {
  AssociateRouteTableCommand, AuthorizeSecurityGroupEgressCommand, AuthorizeSecurityGroupIngressCommand, CreateInternetGatewayCommand, CreateKeyPairCommand, CreateLaunchTemplateCommand,
  CreateNatGatewayCommand, CreateNetworkInterfaceCommand, CreateRouteCommand, CreateRouteTableCommand, CreateSecurityGroupCommand, CreateSubnetCommand,
  CreateVpcCommand, AllocateAddressCommand, AttachInternetGatewayCommand, EC2Client,
} from '@aws-sdk/client-ec2';
import { CreateBucketCommand, PutBucketEncryptionCommand, PutBucketPolicyCommand, PutBucketVersioningCommand, PutPublicAccessBlockCommand, S3Client } from '@aws-sdk/client-s3';
import {
  AttachRolePolicyCommand, AttachUserPolicyCommand, CreateAccessKeyCommand, CreateGroupCommand, CreateInstanceProfileCommand, CreatePolicyCommand,
  CreateRoleCommand, CreateUserCommand, IAMClient, PutRolePolicyCommand, PutUserPolicyCommand,
} from '@aws-sdk/client-iam';
import { CreateAliasCommand, CreateKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { CreateQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { CreateTopicCommand, SNSClient } from '@aws-sdk/client-sns';
import { CloudWatchLogsClient, CreateLogGroupCommand } from '@aws-sdk/client-cloudwatch-logs';
import { CreateRepositoryCommand, ECRClient } from '@aws-sdk/client-ecr';
import { CreateClusterCommand, CreateServiceCommand, ECSClient, RegisterTaskDefinitionCommand } from '@aws-sdk/client-ecs';
import { CreateListenerCommand, CreateLoadBalancerCommand, CreateTargetGroupCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { AutoScalingClient, CreateAutoScalingGroupCommand } from '@aws-sdk/client-auto-scaling';
import { ChangeResourceRecordSetsCommand, CreateHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import { CreateDBSubnetGroupCommand, RDSClient } from '@aws-sdk/client-rds';

export const CREDS = { accessKeyId: 'testing', secretAccessKey: 'testing', region: 'us-east-1' };
const AMI = 'ami-12c6146b';
const doc = (statement: Record<string, unknown>) => JSON.stringify({ Version: '2012-10-17', Statement: [statement] });

/** Every created resource: type → the ids discovery must list for it. */
export type Expected = Record<string, string[]>;

export interface ListEstate { expected: Expected; natEni: string; subnet: string; vpc: string }

export async function buildListEstate(endpoint: string): Promise<ListEstate> {
  const region = 'us-east-1';
  const cfg = { endpoint, region, credentials: CREDS };
  const x: Expected = {};
  const put = (type: string, id: string) => { (x[type] ??= []).push(id); };

  const ec2 = new EC2Client(cfg);
  const vpc = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.20.0.0/16' }))).Vpc!.VpcId!;
  const subnet = (await ec2.send(new CreateSubnetCommand({ VpcId: vpc, CidrBlock: '10.20.1.0/24', AvailabilityZone: 'us-east-1a' }))).Subnet!.SubnetId!;
  const subnet2 = (await ec2.send(new CreateSubnetCommand({ VpcId: vpc, CidrBlock: '10.20.2.0/24', AvailabilityZone: 'us-east-1b' }))).Subnet!.SubnetId!;
  const igw = (await ec2.send(new CreateInternetGatewayCommand({}))).InternetGateway!.InternetGatewayId!;
  await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpc }));
  put('aws_internet_gateway', igw);
  const rtb = (await ec2.send(new CreateRouteTableCommand({ VpcId: vpc }))).RouteTable!.RouteTableId!;
  put('aws_route_table', rtb);
  await ec2.send(new CreateRouteCommand({ RouteTableId: rtb, DestinationCidrBlock: '0.0.0.0/0', GatewayId: igw }));
  put('aws_route', `${rtb}_0.0.0.0/0`);
  put('aws_route_table_association', (await ec2.send(new AssociateRouteTableCommand({ RouteTableId: rtb, SubnetId: subnet }))).AssociationId!);
  const eip = (await ec2.send(new AllocateAddressCommand({ Domain: 'vpc' }))).AllocationId!;
  const nat = (await ec2.send(new CreateNatGatewayCommand({ SubnetId: subnet, AllocationId: eip }))).NatGateway!;
  put('aws_nat_gateway', nat.NatGatewayId!);
  const natEni = nat.NatGatewayAddresses?.[0]?.NetworkInterfaceId ?? '';
  put('aws_network_interface', (await ec2.send(new CreateNetworkInterfaceCommand({ SubnetId: subnet, Description: 'standalone' }))).NetworkInterface!.NetworkInterfaceId!);
  await ec2.send(new CreateKeyPairCommand({ KeyName: 'deploy-key' }));
  put('aws_key_pair', 'deploy-key');
  const lt = (await ec2.send(new CreateLaunchTemplateCommand({ LaunchTemplateName: 'web-lt', LaunchTemplateData: { ImageId: AMI, InstanceType: 't3.micro' } }))).LaunchTemplate!.LaunchTemplateId!;
  put('aws_launch_template', lt);
  const sg = (await ec2.send(new CreateSecurityGroupCommand({ GroupName: 'web-rules', Description: 'web', VpcId: vpc }))).GroupId!;
  const ingress = await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: sg, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, IpRanges: [{ CidrIp: '10.0.0.0/8' }] }] }));
  put('aws_vpc_security_group_ingress_rule', ingress.SecurityGroupRules?.[0]?.SecurityGroupRuleId ?? '?');
  const egress = await ec2.send(new AuthorizeSecurityGroupEgressCommand({ GroupId: sg, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 5432, ToPort: 5432, IpRanges: [{ CidrIp: '10.20.0.0/16' }] }] }));
  put('aws_vpc_security_group_egress_rule', egress.SecurityGroupRules?.[0]?.SecurityGroupRuleId ?? '?');
  ec2.destroy();

  const s3 = new S3Client({ ...cfg, forcePathStyle: true });
  const bucket = 'lists-bucket';
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  await s3.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  await s3.send(new PutBucketEncryptionCommand({ Bucket: bucket, ServerSideEncryptionConfiguration: { Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] } }));
  await s3.send(new PutPublicAccessBlockCommand({ Bucket: bucket, PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: false, IgnorePublicAcls: true, RestrictPublicBuckets: false } }));
  await s3.send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: doc({ Effect: 'Deny', Principal: '*', Action: 's3:DeleteBucket', Resource: `arn:aws:s3:::${bucket}` }) }));
  for (const t of ['aws_s3_bucket_versioning', 'aws_s3_bucket_server_side_encryption_configuration', 'aws_s3_bucket_public_access_block', 'aws_s3_bucket_policy']) put(t, bucket);
  s3.destroy();

  const iam = new IAMClient(cfg);
  await iam.send(new CreateRoleCommand({ RoleName: 'svc-role', AssumeRolePolicyDocument: doc({ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }) }));
  const policy = (await iam.send(new CreatePolicyCommand({ PolicyName: 'svc-read', PolicyDocument: doc({ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }) }))).Policy!.Arn!;
  await iam.send(new PutRolePolicyCommand({ RoleName: 'svc-role', PolicyName: 'inline', PolicyDocument: doc({ Effect: 'Allow', Action: 'sqs:*', Resource: '*' }) }));
  put('aws_iam_role_policy', 'svc-role:inline');
  await iam.send(new AttachRolePolicyCommand({ RoleName: 'svc-role', PolicyArn: policy }));
  put('aws_iam_role_policy_attachment', `svc-role/${policy}`);
  await iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'svc-profile' }));
  put('aws_iam_instance_profile', 'svc-profile');
  await iam.send(new CreateGroupCommand({ GroupName: 'ops' }));
  put('aws_iam_group', 'ops');
  await iam.send(new CreateUserCommand({ UserName: 'deployer' }));
  await iam.send(new PutUserPolicyCommand({ UserName: 'deployer', PolicyName: 'deploy', PolicyDocument: doc({ Effect: 'Allow', Action: 'ecr:*', Resource: '*' }) }));
  put('aws_iam_user_policy', 'deployer:deploy');
  await iam.send(new AttachUserPolicyCommand({ UserName: 'deployer', PolicyArn: policy }));
  put('aws_iam_user_policy_attachment', `deployer/${policy}`);
  put('aws_iam_access_key', (await iam.send(new CreateAccessKeyCommand({ UserName: 'deployer' }))).AccessKey!.AccessKeyId!);
  iam.destroy();

  const kms = new KMSClient(cfg);
  const key = (await kms.send(new CreateKeyCommand({ Description: 'app key' }))).KeyMetadata!.KeyId!;
  put('aws_kms_key', key);
  await kms.send(new CreateAliasCommand({ AliasName: 'alias/app', TargetKeyId: key }));
  put('aws_kms_alias', 'alias/app');
  kms.destroy();

  const sqs = new SQSClient(cfg);
  put('aws_sqs_queue', (await sqs.send(new CreateQueueCommand({ QueueName: 'jobs' }))).QueueUrl!);
  sqs.destroy();
  const sns = new SNSClient(cfg);
  put('aws_sns_topic', (await sns.send(new CreateTopicCommand({ Name: 'alerts' }))).TopicArn!);
  sns.destroy();
  const logs = new CloudWatchLogsClient(cfg);
  await logs.send(new CreateLogGroupCommand({ logGroupName: '/app/web' }));
  put('aws_cloudwatch_log_group', '/app/web');
  logs.destroy();
  const ecr = new ECRClient(cfg);
  await ecr.send(new CreateRepositoryCommand({ repositoryName: 'web' }));
  put('aws_ecr_repository', 'web');
  ecr.destroy();

  const ecs = new ECSClient(cfg);
  const cluster = (await ecs.send(new CreateClusterCommand({ clusterName: 'apps' }))).cluster!.clusterArn!;
  put('aws_ecs_cluster', cluster);
  const td = (await ecs.send(new RegisterTaskDefinitionCommand({ family: 'web', containerDefinitions: [{ name: 'web', image: 'nginx', memory: 128 }] }))).taskDefinition!.taskDefinitionArn!;
  put('aws_ecs_task_definition', td);
  put('aws_ecs_service', (await ecs.send(new CreateServiceCommand({ cluster: 'apps', serviceName: 'web', taskDefinition: td, desiredCount: 1 }))).service!.serviceArn!);
  ecs.destroy();

  const rds = new RDSClient(cfg);
  await rds.send(new CreateDBSubnetGroupCommand({ DBSubnetGroupName: 'db-subnets', DBSubnetGroupDescription: 'db', SubnetIds: [subnet, subnet2] }));
  put('aws_db_subnet_group', 'db-subnets');
  rds.destroy();

  const elb = new ElasticLoadBalancingV2Client(cfg);
  const lb = (await elb.send(new CreateLoadBalancerCommand({ Name: 'web-lb', Subnets: [subnet, subnet2], SecurityGroups: [sg] }))).LoadBalancers![0].LoadBalancerArn!;
  put('aws_lb', lb);
  const tg = (await elb.send(new CreateTargetGroupCommand({ Name: 'web-tg', Protocol: 'HTTP', Port: 80, VpcId: vpc }))).TargetGroups![0].TargetGroupArn!;
  put('aws_lb_target_group', tg);
  put('aws_lb_listener', (await elb.send(new CreateListenerCommand({ LoadBalancerArn: lb, Protocol: 'HTTP', Port: 80, DefaultActions: [{ Type: 'forward', TargetGroupArn: tg }] }))).Listeners![0].ListenerArn!);
  elb.destroy();

  const asg = new AutoScalingClient(cfg);
  await asg.send(new CreateAutoScalingGroupCommand({ AutoScalingGroupName: 'web-asg', MinSize: 0, MaxSize: 1, DesiredCapacity: 0, LaunchTemplate: { LaunchTemplateId: lt, Version: '$Latest' }, VPCZoneIdentifier: subnet }));
  put('aws_autoscaling_group', 'web-asg');
  asg.destroy();

  const r53 = new Route53Client(cfg);
  const zone = (await r53.send(new CreateHostedZoneCommand({ Name: 'lists.example.com', CallerReference: 'lists-test' }))).HostedZone!.Id!.replace('/hostedzone/', '');
  put('aws_route53_zone', zone);
  await r53.send(new ChangeResourceRecordSetsCommand({ HostedZoneId: zone, ChangeBatch: { Changes: [{ Action: 'CREATE', ResourceRecordSet: { Name: 'www.lists.example.com', Type: 'A', TTL: 300, ResourceRecords: [{ Value: '10.0.0.1' }] } }] } }));
  put('aws_route53_record', `${zone}_www.lists.example.com_A`);
  r53.destroy();
  return { expected: x, natEni, subnet, vpc };
}
