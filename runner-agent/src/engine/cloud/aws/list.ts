// List mode of the readers: the resources of one type in one region (or, for IAM, S3 and
// Route 53, the account), as the ids the type's reader reads them by (inventory.ts readerIdOf).
// The attributes are then read through the reader itself (AWS_READERS[type].read), so a
// resource discovered and a resource compared are described by the same code. Cloud Discovery
// uses this. The listers live by service in list-ec2.ts, list-iam.ts and list-services.ts.
//
// Reader types with no lister, on purpose: aws_security_group_rule (the legacy rule type; the
// same rules are listed as aws_vpc_security_group_ingress_rule / _egress_rule, one per rule
// id), the aliases aws_alb, aws_alb_listener, aws_alb_target_group (listed as aws_lb*), and
// aws_default_vpc / _subnet / _security_group / _route_table (the same objects are listed as
// aws_vpc, aws_subnet, aws_security_group, aws_route_table).
import { DescribeRegionsCommand, type DescribeRegionsCommandOutput } from '@aws-sdk/client-ec2';
import type { AwsContext } from './context.ts';
import { EC2_LISTERS } from './list-ec2.ts';
import { IAM_LISTERS } from './list-iam.ts';
import type { Lister } from './list-kit.ts';
import { SERVICE_LISTERS } from './list-services.ts';

export type { Listed, Lister } from './list-kit.ts';

export const AWS_LISTERS: Record<string, Lister> = { ...EC2_LISTERS, ...SERVICE_LISTERS, ...IAM_LISTERS };

/** Reader types listed under another type's name (see above). */
export const NOT_LISTED: Record<string, string> = {
  aws_security_group_rule: 'aws_vpc_security_group_ingress_rule / aws_vpc_security_group_egress_rule',
  aws_alb: 'aws_lb', aws_alb_listener: 'aws_lb_listener', aws_alb_target_group: 'aws_lb_target_group',
  aws_default_vpc: 'aws_vpc', aws_default_subnet: 'aws_subnet', aws_default_security_group: 'aws_security_group', aws_default_route_table: 'aws_route_table',
};

/**
 * Reader types Cloud Discovery does not list yet: issue 33 added their drift readers (compared in
 * every drift scan), but not their listers, generate-iac arguments or prices. list-modes.test.ts
 * fails when a reader type is in neither table, and when a type here gains a lister.
 */
export const DRIFT_ONLY: ReadonlySet<string> = new Set([
  'aws_acm_certificate', 'aws_alb_target_group_attachment', 'aws_ami', 'aws_ami_copy', 'aws_ami_from_instance',
  'aws_api_gateway_authorizer', 'aws_api_gateway_deployment', 'aws_api_gateway_integration',
  'aws_api_gateway_integration_response', 'aws_api_gateway_method', 'aws_api_gateway_method_response', 'aws_api_gateway_model',
  'aws_api_gateway_request_validator', 'aws_api_gateway_resource', 'aws_api_gateway_rest_api', 'aws_api_gateway_rest_api_policy',
  'aws_api_gateway_stage', 'aws_apigatewayv2_api', 'aws_apigatewayv2_api_mapping', 'aws_apigatewayv2_authorizer',
  'aws_apigatewayv2_deployment', 'aws_apigatewayv2_domain_name', 'aws_apigatewayv2_integration', 'aws_apigatewayv2_route',
  'aws_apigatewayv2_stage', 'aws_autoscaling_policy', 'aws_cloudfront_distribution', 'aws_cloudwatch_event_rule',
  'aws_cloudwatch_event_target', 'aws_cloudwatch_metric_alarm', 'aws_codebuild_project', 'aws_codecommit_repository',
  'aws_codedeploy_app', 'aws_codedeploy_deployment_group', 'aws_db_parameter_group', 'aws_default_network_acl',
  'aws_efs_file_system', 'aws_efs_mount_target', 'aws_eip_association', 'aws_eks_cluster', 'aws_eks_node_group',
  'aws_iam_group_membership', 'aws_iam_group_policy', 'aws_iam_group_policy_attachment', 'aws_iam_openid_connect_provider',
  'aws_iam_user_group_membership', 'aws_iam_user_login_profile', 'aws_lambda_function_url', 'aws_lambda_permission',
  'aws_launch_configuration', 'aws_lb_target_group_attachment', 'aws_main_route_table_association', 'aws_network_acl',
  'aws_network_acl_association', 'aws_network_acl_rule', 'aws_s3_bucket_acl', 'aws_s3_bucket_cors_configuration',
  'aws_s3_bucket_lifecycle_configuration', 'aws_s3_bucket_object', 'aws_s3_bucket_ownership_controls',
  'aws_s3_bucket_website_configuration', 'aws_s3_object', 'aws_secretsmanager_secret', 'aws_secretsmanager_secret_version',
  'aws_sns_topic_policy', 'aws_sns_topic_subscription', 'aws_sqs_queue_policy', 'aws_ssm_parameter', 'aws_volume_attachment',
  'aws_vpc_endpoint', 'aws_vpc_endpoint_route_table_association',
]);

/** The regions the account has enabled (EC2 DescribeRegions), sorted. */
export async function enabledRegions(ctx: AwsContext): Promise<string[]> {
  const out = await ctx.send<DescribeRegionsCommandOutput>(ctx.ec2(ctx.defaultRegion), new DescribeRegionsCommand({}), 'ec2:DescribeRegions');
  return (out.Regions ?? []).filter((r) => r.OptInStatus !== 'not-opted-in').map((r) => r.RegionName!).filter(Boolean).sort();
}
