// Databases: RDS instances and subnet groups, DynamoDB tables. Here: each type's reader, the
// attributes never reported as drift (computed, write-only or Terraform-side) and the family's
// severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { dynamodbTableReader } from './dynamodb.ts';
import { dbInstanceReader, dbSubnetGroupReader } from './rds.ts';

export const DATABASES_READERS: Record<string, TypeReader> = {
  aws_db_instance: dbInstanceReader,
  aws_db_subnet_group: dbSubnetGroupReader,
  aws_dynamodb_table: dynamodbTableReader,
};

export const DATABASES_IGNORED: Record<string, string[]> = {
  aws_db_instance: ['status', 'address', 'endpoint', 'hosted_zone_id', 'resource_id', 'latest_restorable_time', 'engine_version_actual', 'apply_immediately', 'availability_zone'],
  aws_db_subnet_group: ['name_prefix', 'supported_network_types', 'vpc_id'],
  aws_dynamodb_table: ['stream_arn', 'stream_label', 'ttl', 'replica', 'restore_date_time', 'restore_source_name', 'restore_to_latest_time'],
};

/** First match wins across the whole table (rules.ts): a family's specific rules come before its broader ones. */
export const DATABASES_RULES: SeverityRule[] = [
  { id: 'db-publicly-accessible', severity: 'critical', description: 'Database made publicly accessible',
    rationale: 'The database endpoint now resolves to a public address.',
    types: ['aws_db_instance'], attributes: ['publicly_accessible'], becomes: [true] },
  { id: 'db-deletion-protection-off', severity: 'high', description: 'Database deletion protection turned off',
    rationale: 'The database and its data can be deleted by one call.',
    types: ['aws_db_instance'], attributes: ['deletion_protection'], becomes: [false] },
  { id: 'db-access-changed', severity: 'high', description: 'Database security groups or subnet group changed',
    rationale: 'Which networks reach the database changed outside review.',
    types: ['aws_db_instance'], attributes: ['vpc_security_group_ids', 'db_subnet_group_name'] },
];
