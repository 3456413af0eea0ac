// AWS rules that span service families (a queue, a table and a log group lose their key alike; a
// route, a function and a service move to another network alike). They come after every family's
// own rules in AWS_RULES (cloud/aws/index.ts): first match wins, so a family's specific rule decides first.
import type { SeverityRule } from '../../rules.ts';

export const AWS_SHARED_RULES: SeverityRule[] = [
  { id: 'encryption-key-removed', severity: 'high', description: 'Encryption key removed from a queue, topic, table, log group or repository',
    rationale: 'Data at rest is no longer encrypted with the key the code chose.',
    types: ['aws_sqs_queue', 'aws_sns_topic', 'aws_cloudwatch_log_group', 'aws_ecr_repository', 'aws_dynamodb_table'],
    attributes: ['kms_master_key_id', 'kms_key_id', 'encryption_configuration*', 'server_side_encryption*'], becomes: [''] },
  { id: 'network-access-changed', severity: 'high', description: 'Network path changed (security groups, gateways, associations, public IPs)',
    rationale: 'Network paths to or from the resource changed outside review.',
    types: ['aws_route', 'aws_route_table', 'aws_route_table_association', 'aws_network_interface', 'aws_eip', 'aws_nat_gateway', 'aws_lambda_function', 'aws_ecs_service', 'aws_launch_template', 'aws_autoscaling_group'],
    attributes: ['route', 'gateway_id', 'nat_gateway_id', 'subnet_id', 'route_table_id', 'security_groups', 'vpc_security_group_ids', 'instance', 'network_interface', 'vpc_config', 'network_configuration'] },
];
