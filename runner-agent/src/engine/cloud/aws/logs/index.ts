// CloudWatch Logs: log groups. Here: each type's reader, the attributes never reported as drift
// (computed, write-only or Terraform-side) and the family's severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { logGroupReader } from './log-groups.ts';

export const LOGS_READERS: Record<string, TypeReader> = {
  aws_cloudwatch_log_group: logGroupReader,
};

export const LOGS_IGNORED: Record<string, string[]> = {
  aws_cloudwatch_log_group: ['name_prefix', 'skip_destroy'],
};

/** None of its own: the AWS-wide rules (cloud/aws/rules.ts), then the generic ones (tags-only, deleted, changed). */
export const LOGS_RULES: SeverityRule[] = [];
