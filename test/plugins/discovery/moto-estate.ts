// A small estate in a private moto, over three regions, for the discovery tests and the bench.
import { CreateSubnetCommand, CreateSecurityGroupCommand, CreateVolumeCommand, CreateVpcCommand, EC2Client, RunInstancesCommand, AllocateAddressCommand } from '@aws-sdk/client-ec2';
import { CreateBucketCommand, PutBucketEncryptionCommand, PutBucketVersioningCommand, PutPublicAccessBlockCommand, S3Client } from '@aws-sdk/client-s3';
import { CreatePolicyCommand, CreateRoleCommand, CreateUserCommand, IAMClient } from '@aws-sdk/client-iam';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateDBInstanceCommand, RDSClient } from '@aws-sdk/client-rds';

export const CREDS = { accessKeyId: 'testing', secretAccessKey: 'testing', region: 'us-east-1' };
export const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-2'];
const AMI = 'ami-12c6146b'; // a moto default image in every region

export interface Estate {
  vpcs: Record<string, string>; subnets: Record<string, string>; groups: Record<string, string>; instances: Record<string, string>;
  volumes: Record<string, string>; eips: Record<string, string>; buckets: string[]; role: string; policyArn: string; user: string; table: string; db: string;
}

export async function buildEstate(endpoint: string, suffix: string): Promise<Estate> {
  const cfg = (region: string) => ({ endpoint, region, credentials: CREDS });
  const e: Estate = { vpcs: {}, subnets: {}, groups: {}, instances: {}, volumes: {}, eips: {}, buckets: [], role: '', policyArn: '', user: '', table: '', db: '' };
  for (const region of REGIONS) {
    const ec2 = new EC2Client(cfg(region));
    const vpc = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.10.0.0/16' }))).Vpc!.VpcId!;
    const subnet = (await ec2.send(new CreateSubnetCommand({ VpcId: vpc, CidrBlock: '10.10.1.0/24', AvailabilityZone: `${region}a` }))).Subnet!.SubnetId!;
    const sg = (await ec2.send(new CreateSecurityGroupCommand({ GroupName: `web-${suffix}`, Description: 'web', VpcId: vpc }))).GroupId!;
    const inst = (await ec2.send(new RunInstancesCommand({ ImageId: AMI, InstanceType: 't3.micro', MinCount: 1, MaxCount: 1, SubnetId: subnet, SecurityGroupIds: [sg] }))).Instances![0].InstanceId!;
    const vol = (await ec2.send(new CreateVolumeCommand({ AvailabilityZone: `${region}a`, Size: 100, VolumeType: 'gp3' }))).VolumeId!;
    const eip = (await ec2.send(new AllocateAddressCommand({ Domain: 'vpc' }))).AllocationId!;
    Object.assign(e.vpcs, { [region]: vpc }); Object.assign(e.subnets, { [region]: subnet }); Object.assign(e.groups, { [region]: sg });
    Object.assign(e.instances, { [region]: inst }); Object.assign(e.volumes, { [region]: vol }); Object.assign(e.eips, { [region]: eip });
    ec2.destroy();
  }
  const s3 = new S3Client({ ...cfg('us-east-1'), forcePathStyle: true });
  const open = `open-${suffix}`;
  const locked = `locked-${suffix}`;
  await s3.send(new CreateBucketCommand({ Bucket: open }));
  const s3eu = new S3Client({ ...cfg('eu-west-1'), forcePathStyle: true });
  await s3eu.send(new CreateBucketCommand({ Bucket: locked, CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' } }));
  await s3eu.send(new PutBucketVersioningCommand({ Bucket: locked, VersioningConfiguration: { Status: 'Enabled' } }));
  await s3eu.send(new PutBucketEncryptionCommand({ Bucket: locked, ServerSideEncryptionConfiguration: { Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' } }] } }));
  await s3eu.send(new PutPublicAccessBlockCommand({ Bucket: locked, PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true } }));
  e.buckets = [open, locked];
  s3.destroy(); s3eu.destroy();
  const iam = new IAMClient(cfg('us-east-1'));
  e.role = `app-${suffix}`;
  await iam.send(new CreateRoleCommand({ RoleName: e.role, AssumeRolePolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] }) }));
  e.policyArn = (await iam.send(new CreatePolicyCommand({ PolicyName: `read-${suffix}`, PolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }] }) }))).Policy!.Arn!;
  e.user = `ci-${suffix}`;
  await iam.send(new CreateUserCommand({ UserName: e.user }));
  iam.destroy();
  const ddb = new DynamoDBClient(cfg('eu-west-1'));
  e.table = `orders-${suffix}`;
  await ddb.send(new CreateTableCommand({ TableName: e.table, BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] }));
  ddb.destroy();
  const rds = new RDSClient(cfg('us-east-1'));
  e.db = `db-${suffix}`;
  await rds.send(new CreateDBInstanceCommand({ DBInstanceIdentifier: e.db, Engine: 'postgres', DBInstanceClass: 'db.t3.micro', AllocatedStorage: 20, MasterUsername: 'app', MasterUserPassword: 'secret-secret' }));
  rds.destroy();
  return e;
}
