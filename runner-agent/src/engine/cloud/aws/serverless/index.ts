// Serverless: Lambda functions. Here: each type's reader, the attributes never reported as drift
// (computed, write-only or Terraform-side) and the family's severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { lambdaFunctionReader } from './lambda.ts';

export const SERVERLESS_READERS: Record<string, TypeReader> = {
  aws_lambda_function: lambdaFunctionReader,
};

export const SERVERLESS_IGNORED: Record<string, string[]> = {
  aws_lambda_function: ['last_modified', 'qualified_arn', 'qualified_invoke_arn', 'invoke_arn', 'version', 'source_code_hash', 'source_code_size', 'signing_job_arn', 'signing_profile_version_arn', 'publish', 'filename', 's3_bucket', 's3_key', 's3_object_version', 'code_sha256', 'skip_destroy', 'vpc_config.*.vpc_id'],
};

/** None of its own: the AWS-wide rules (cloud/aws/rules.ts), then the generic ones (tags-only, deleted, changed). */
export const SERVERLESS_RULES: SeverityRule[] = [];
