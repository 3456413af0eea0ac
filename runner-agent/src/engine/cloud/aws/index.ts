// cloud_a (AWS): the resource types with a live reader, the attributes never reported as drift and
// the severity rules, gathered from the service-family folders (ec2/, vpc/, iam/, s3/ ...; each holds
// its types' readers, replay answers, ignore list and rules, exported from its index.ts). A family
// registers with one spread line in each table below. State instances of other types are counted
// in stats.unsupported and not compared. engine/catalogue.ts puts these next to Azure's and Google's.
import type { SeverityRule } from '../../rules.ts';
import { APIGATEWAYV2_IGNORED, APIGATEWAYV2_READERS, APIGATEWAYV2_RULES } from './apigatewayv2/index.ts';
import { CONTAINERS_IGNORED, CONTAINERS_READERS, CONTAINERS_RULES } from './containers/index.ts';
import { DATABASES_IGNORED, DATABASES_READERS, DATABASES_RULES } from './databases/index.ts';
import { DNS_IGNORED, DNS_READERS, DNS_RULES } from './dns/index.ts';
import { EC2_IGNORED, EC2_READERS, EC2_RULES } from './ec2/index.ts';
import { ELB_IGNORED, ELB_READERS, ELB_RULES } from './elb/index.ts';
import { EVENTS_IGNORED, EVENTS_READERS, EVENTS_RULES } from './events/index.ts';
import { IAM_IGNORED, IAM_READERS, IAM_RULES } from './iam/index.ts';
import { KMS_IGNORED, KMS_READERS, KMS_RULES } from './kms/index.ts';
import { LOGS_IGNORED, LOGS_READERS, LOGS_RULES } from './logs/index.ts';
import { MESSAGING_IGNORED, MESSAGING_READERS, MESSAGING_RULES } from './messaging/index.ts';
import { EC2NET_IGNORED, EC2NET_READERS, EC2NET_RULES } from './ec2net/index.ts';
import { S3MORE_IGNORED, S3MORE_READERS, S3MORE_RULES } from './s3more/index.ts';
import { EFS_IGNORED, EFS_READERS, EFS_RULES } from './efs/index.ts';
import { FLEET_IGNORED, FLEET_READERS, FLEET_RULES } from './fleet/index.ts';
import { IAMEXTRA_IGNORED, IAMEXTRA_READERS, IAMEXTRA_RULES } from './iamextra/index.ts';
import { MONITORING_IGNORED, MONITORING_READERS, MONITORING_RULES } from './monitoring/index.ts';
import { DEVTOOLS_IGNORED, DEVTOOLS_READERS, DEVTOOLS_RULES } from './devtools/index.ts';
import { RDSEXTRA_IGNORED, RDSEXTRA_READERS, RDSEXTRA_RULES } from './rdsextra/index.ts';
import { SECRETS_IGNORED, SECRETS_READERS, SECRETS_RULES } from './secrets/index.ts';
import { EKS_IGNORED, EKS_READERS, EKS_RULES } from './eks/index.ts';
import { APIGATEWAY_IGNORED, APIGATEWAY_READERS, APIGATEWAY_RULES } from './apigateway/index.ts';
import { LAMBDA_EXTRA_IGNORED, LAMBDA_EXTRA_READERS, LAMBDA_EXTRA_RULES } from './lambdaextra/index.ts';
import { CLOUDFRONT_IGNORED, CLOUDFRONT_READERS, CLOUDFRONT_RULES } from './cloudfront/index.ts';
import { ACM_IGNORED, ACM_READERS, ACM_RULES } from './acm/index.ts';
import type { TypeReader } from './reader.ts';
import { AWS_SHARED_RULES } from './rules.ts';
import { S3_IGNORED, S3_READERS, S3_RULES } from './s3/index.ts';
import { SERVERLESS_IGNORED, SERVERLESS_READERS, SERVERLESS_RULES } from './serverless/index.ts';
import { VPC_IGNORED, VPC_READERS, VPC_RULES } from './vpc/index.ts';

export const AWS_READERS: Record<string, TypeReader> = {
  ...FLEET_READERS,
  ...EFS_READERS,
  ...S3MORE_READERS,
  ...EC2NET_READERS,
  ...EC2_READERS,
  ...VPC_READERS,
  ...IAM_READERS,
  ...S3_READERS,
  ...ELB_READERS,
  ...DATABASES_READERS,
  ...CONTAINERS_READERS,
  ...SERVERLESS_READERS,
  ...MESSAGING_READERS,
  ...DNS_READERS,
  ...KMS_READERS,
  ...LOGS_READERS,
  ...ACM_READERS,
  ...CLOUDFRONT_READERS,
  ...LAMBDA_EXTRA_READERS,
  ...APIGATEWAY_READERS,
  ...EKS_READERS,
  ...SECRETS_READERS,
  ...RDSEXTRA_READERS,
  ...DEVTOOLS_READERS,
  ...MONITORING_READERS,
  ...IAMEXTRA_READERS,
  ...APIGATEWAYV2_READERS,
  ...EVENTS_READERS,
};

/** Attribute patterns never reported, per AWS type (the '*' list for every type is in ignore.ts). */
export const AWS_IGNORED: Record<string, string[]> = {
  ...EC2_IGNORED,
  ...VPC_IGNORED,
  ...IAM_IGNORED,
  ...S3_IGNORED,
  ...ELB_IGNORED,
  ...DATABASES_IGNORED,
  ...CONTAINERS_IGNORED,
  ...SERVERLESS_IGNORED,
  ...MESSAGING_IGNORED,
  ...DNS_IGNORED,
  ...KMS_IGNORED,
  ...LOGS_IGNORED,
  ...ACM_IGNORED,
  ...CLOUDFRONT_IGNORED,
  ...LAMBDA_EXTRA_IGNORED,
  ...APIGATEWAY_IGNORED,
  ...EKS_IGNORED,
  ...SECRETS_IGNORED,
  ...RDSEXTRA_IGNORED,
  ...DEVTOOLS_IGNORED,
  ...MONITORING_IGNORED,
  ...IAMEXTRA_IGNORED,
  ...FLEET_IGNORED,
  ...EFS_IGNORED,
  ...S3MORE_IGNORED,
  ...EC2NET_IGNORED,
  ...APIGATEWAYV2_IGNORED,
  ...EVENTS_IGNORED,
};

/**
 * The AWS severity rules in the order classify() tries them (first match wins): each family's
 * own, then the rules spanning families. The families name disjoint types, so their order among
 * themselves decides nothing; a new family's line goes before AWS_SHARED_RULES.
 */
export const AWS_RULES: SeverityRule[] = [
  ...VPC_RULES,
  ...S3_RULES,
  ...IAM_RULES,
  ...EC2_RULES,
  ...DATABASES_RULES,
  ...KMS_RULES,
  ...MESSAGING_RULES,
  ...ELB_RULES,
  ...CONTAINERS_RULES,
  ...SERVERLESS_RULES,
  ...DNS_RULES,
  ...LOGS_RULES,
  ...APIGATEWAYV2_RULES,
  ...EVENTS_RULES,
  ...EC2NET_RULES,
  ...S3MORE_RULES,
  ...EFS_RULES,
  ...FLEET_RULES,
  ...IAMEXTRA_RULES,
  ...MONITORING_RULES,
  ...DEVTOOLS_RULES,
  ...RDSEXTRA_RULES,
  ...SECRETS_RULES,
  ...EKS_RULES,
  ...APIGATEWAY_RULES,
  ...LAMBDA_EXTRA_RULES,
  ...CLOUDFRONT_RULES,
  ...ACM_RULES,
  ...AWS_SHARED_RULES,
];

export { AwsContext } from './context.ts';
export type { TypeReader, ReadItem } from './reader.ts';
