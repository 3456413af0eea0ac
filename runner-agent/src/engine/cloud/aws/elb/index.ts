// Elastic Load Balancing v2: load balancers, listeners and target groups (aws_alb_* are the same types
// under their older names). Here: each type's reader, the attributes never reported as drift
// (computed, write-only or Terraform-side) and the family's severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { listenerReader, loadBalancerReader, targetGroupReader } from './elbv2.ts';

export const ELB_READERS: Record<string, TypeReader> = {
  aws_lb: loadBalancerReader,
  aws_alb: loadBalancerReader,
  aws_lb_listener: listenerReader,
  aws_alb_listener: listenerReader,
  aws_lb_target_group: targetGroupReader,
  aws_alb_target_group: targetGroupReader,
};

export const ELB_IGNORED: Record<string, string[]> = {
  aws_lb: ['dns_name', 'zone_id', 'arn_suffix', 'name_prefix', 'vpc_id'],
  aws_alb: ['dns_name', 'zone_id', 'arn_suffix', 'name_prefix', 'vpc_id'],
  aws_lb_target_group: ['arn_suffix', 'name_prefix', 'load_balancer_arns'],
};

export const ELB_RULES: SeverityRule[] = [
  { id: 'lb-exposed', severity: 'high', description: 'Load balancer became internet-facing, or its security groups or listener changed',
    rationale: 'What the load balancer exposes, or how it terminates TLS, changed.',
    types: ['aws_lb', 'aws_alb', 'aws_lb_listener'], attributes: ['internal', 'security_groups', 'protocol', 'port', 'default_action', 'certificate_arn', 'ssl_policy'] },
];
