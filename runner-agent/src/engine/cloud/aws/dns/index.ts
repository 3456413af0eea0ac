// DNS: Route 53 hosted zones and records. Here: each type's reader, the attributes never reported as
// drift (computed, write-only or Terraform-side) and the family's severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { route53RecordReader, route53ZoneReader } from './route53.ts';

export const DNS_READERS: Record<string, TypeReader> = {
  aws_route53_zone: route53ZoneReader,
  aws_route53_record: route53RecordReader,
};

export const DNS_IGNORED: Record<string, string[]> = {
  aws_route53_zone: ['name_servers', 'primary_name_server', 'force_destroy', 'delegation_set_id'],
  aws_route53_record: ['fqdn', 'allow_overwrite'],
};

/** None of its own: the AWS-wide rules (cloud/aws/rules.ts), then the generic ones (tags-only, deleted, changed). */
export const DNS_RULES: SeverityRule[] = [];
