// What the out-of-band changes of the verdict tests share: the SDK clients pointed at moto, a
// change's shape, and the policy documents and tag edit several changes use. The changes
// themselves are per half: changes-workload.ts and changes-services.ts.
import { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateTagsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { ECRClient } from '@aws-sdk/client-ecr';
import { ECSClient } from '@aws-sdk/client-ecs';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { IAMClient } from '@aws-sdk/client-iam';
import { KMSClient } from '@aws-sdk/client-kms';
import { RDSClient } from '@aws-sdk/client-rds';
import { Route53Client } from '@aws-sdk/client-route-53';
import { S3Client } from '@aws-sdk/client-s3';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';

export function verdictClients(endpoint: string, region: string) {
  const cfg = { endpoint, region, credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' } };
  return {
    ec2: new EC2Client(cfg), s3: new S3Client({ ...cfg, forcePathStyle: true }), iam: new IAMClient(cfg), kms: new KMSClient(cfg),
    sqs: new SQSClient(cfg), sns: new SNSClient(cfg), logs: new CloudWatchLogsClient(cfg), dynamodb: new DynamoDBClient(cfg),
    ecr: new ECRClient(cfg), ecs: new ECSClient(cfg), rds: new RDSClient(cfg), elb: new ElasticLoadBalancingV2Client(cfg),
    autoscaling: new AutoScalingClient(cfg), route53: new Route53Client(cfg),
  };
}
type Clients = ReturnType<typeof verdictClients>;

/** A state attribute by resource address (`aws_sqs_queue.jobs`, `id`). */
export type StateAttr = (address: string, key: string) => string;

export interface Change { address: string; what: string; run(c: Clients, a: StateAttr, suffix: string): Promise<unknown> }

export const doc = (statement: Record<string, unknown>) => JSON.stringify({ Version: '2012-10-17', Statement: [statement] });
export const WIDE = doc({ Effect: 'Allow', Action: ['s3:*'], Resource: ['*'] });
export const tag = (c: Clients, id: string, key = 'Env', value = 'prod') => c.ec2.send(new CreateTagsCommand({ Resources: [id], Tags: [{ Key: key, Value: value }] }));
