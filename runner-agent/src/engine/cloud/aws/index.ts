// cloud_a (AWS): the resource types with a live reader. State instances of other types are
// counted in stats.unsupported and not compared.
import { instanceReader } from './ec2.ts';
import { securityGroupReader, securityGroupRuleReader, vpcRuleReader } from './security-groups.ts';
import { policyReader, rolePolicyReader, roleReader } from './iam.ts';
import type { TypeReader } from './reader.ts';
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
};

export { AwsContext } from './context.ts';
export type { TypeReader, ReadItem } from './reader.ts';
