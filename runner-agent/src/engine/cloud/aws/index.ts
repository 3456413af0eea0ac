// cloud_a (AWS): the resource types with a live reader. State instances of other types are
// counted in stats.unsupported and not compared.
import { instanceReader } from './ec2.ts';
import { securityGroupReader, securityGroupRuleReader, vpcRuleReader } from './security-groups.ts';
import { policyReader, rolePolicyReader, roleReader } from './iam.ts';
import type { TypeReader } from './reader.ts';
import { ACM_READERS } from './acm/index.ts';
import { APIGATEWAY_READERS } from './apigateway/index.ts';
import { CLOUDFRONT_READERS } from './cloudfront/index.ts';
import { EKS_READERS } from './eks/index.ts';
import { LAMBDA_EXTRA_READERS } from './lambdaextra/index.ts';
import { kmsAliasReader } from './kms-alias.ts';
import { accessKeyReader, userPolicyAttachmentReader, userPolicyReader } from './iam-user-policies.ts';
import { autoscalingGroupReader } from './autoscaling.ts';
import { listenerReader, loadBalancerReader, targetGroupReader } from './elbv2.ts';
import { dbInstanceReader, dbSubnetGroupReader } from './rds.ts';
import { route53RecordReader, route53ZoneReader } from './route53.ts';
import { dynamodbTableReader } from './dynamodb.ts';
import { ecrRepositoryReader } from './ecr.ts';
import { ecsClusterReader, ecsServiceReader, ecsTaskDefinitionReader } from './ecs.ts';
import { kmsKeyReader } from './kms.ts';
import { lambdaFunctionReader } from './lambda.ts';
import { logGroupReader } from './logs.ts';
import { snsTopicReader, sqsQueueReader } from './queues-topics.ts';
import { groupReader, instanceProfileReader, rolePolicyAttachmentReader, userReader } from './iam-entities.ts';
import { ebsVolumeReader, keyPairReader, launchTemplateReader } from './ec2-compute.ts';
import { eipReader, natGatewayReader, networkInterfaceReader } from './ec2-network.ts';
import { routeReader, routeTableAssociationReader, routeTableReader } from './route-tables.ts';
import { internetGatewayReader, subnetReader, vpcReader } from './vpc.ts';
import {
  bucketEncryptionReader, bucketPolicyReader, bucketReader, bucketVersioningReader, publicAccessBlockReader,
} from './s3.ts';

export const AWS_READERS: Record<string, TypeReader> = {
  aws_instance: instanceReader,
  aws_security_group: securityGroupReader,
  aws_security_group_rule: securityGroupRuleReader,
  aws_vpc_security_group_ingress_rule: vpcRuleReader(false),
  aws_vpc_security_group_egress_rule: vpcRuleReader(true),
  aws_s3_bucket: bucketReader,
  aws_s3_bucket_versioning: bucketVersioningReader,
  aws_s3_bucket_server_side_encryption_configuration: bucketEncryptionReader,
  aws_s3_bucket_public_access_block: publicAccessBlockReader,
  aws_s3_bucket_policy: bucketPolicyReader,
  aws_iam_role: roleReader,
  aws_iam_policy: policyReader,
  aws_iam_role_policy: rolePolicyReader,
  aws_vpc: vpcReader,
  aws_subnet: subnetReader,
  aws_internet_gateway: internetGatewayReader,
  aws_route_table: routeTableReader,
  aws_route_table_association: routeTableAssociationReader,
  aws_route: routeReader,
  aws_nat_gateway: natGatewayReader,
  aws_eip: eipReader,
  aws_network_interface: networkInterfaceReader,
  aws_ebs_volume: ebsVolumeReader,
  aws_key_pair: keyPairReader,
  aws_launch_template: launchTemplateReader,
  aws_iam_role_policy_attachment: rolePolicyAttachmentReader,
  aws_iam_instance_profile: instanceProfileReader,
  aws_iam_user: userReader,
  aws_iam_group: groupReader,
  aws_kms_key: kmsKeyReader,
  aws_sqs_queue: sqsQueueReader,
  aws_sns_topic: snsTopicReader,
  aws_cloudwatch_log_group: logGroupReader,
  aws_lambda_function: lambdaFunctionReader,
  aws_dynamodb_table: dynamodbTableReader,
  aws_ecr_repository: ecrRepositoryReader,
  aws_ecs_cluster: ecsClusterReader,
  aws_ecs_service: ecsServiceReader,
  aws_ecs_task_definition: ecsTaskDefinitionReader,
  aws_db_instance: dbInstanceReader,
  aws_db_subnet_group: dbSubnetGroupReader,
  aws_lb: loadBalancerReader,
  aws_alb: loadBalancerReader,
  aws_lb_listener: listenerReader,
  aws_alb_listener: listenerReader,
  aws_lb_target_group: targetGroupReader,
  aws_alb_target_group: targetGroupReader,
  aws_autoscaling_group: autoscalingGroupReader,
  aws_route53_zone: route53ZoneReader,
  aws_route53_record: route53RecordReader,
  aws_default_vpc: vpcReader,
  aws_default_subnet: subnetReader,
  aws_default_security_group: securityGroupReader,
  aws_default_route_table: routeTableReader,
  aws_iam_user_policy_attachment: userPolicyAttachmentReader,
  aws_iam_user_policy: userPolicyReader,
  aws_kms_alias: kmsAliasReader,
  aws_iam_access_key: accessKeyReader,
  ...EKS_READERS,
  ...APIGATEWAY_READERS,
  ...LAMBDA_EXTRA_READERS,
  ...CLOUDFRONT_READERS,
  ...ACM_READERS,
};

export { AwsContext } from './context.ts';
export type { TypeReader, ReadItem } from './reader.ts';
