// Severity rules of the fleet types (engine rules.ts explains the conditions); tag-only edits fall
// through to the generic `tags-only` (low).
import type { SeverityRule } from '../../../rules.ts';

export const FLEET_RULES: SeverityRule[] = [
  { id: 'ami-made-public', severity: 'critical', description: 'AMI made public',
    rationale: 'Every AWS account can now launch the image, and read what its disks hold.',
    types: ['aws_ami_from_instance', 'aws_ami', 'aws_ami_copy'], changeTypes: ['changed'], attributes: ['public'], becomes: [true] },
  { id: 'launch-configuration-access-changed', severity: 'high', description: 'Launch configuration security groups, instance profile or public IP changed',
    rationale: 'Instances the group launches get other network exposure or cloud permissions than reviewed.',
    types: ['aws_launch_configuration'], changeTypes: ['changed'], attributes: ['security_groups', 'iam_instance_profile', 'associate_public_ip_address', 'image_id'] },
  { id: 'target-group-attachment-removed', severity: 'medium', description: 'Target removed from its load balancer target group',
    rationale: 'The load balancer no longer sends traffic to the target; capacity or a service is missing.',
    types: ['aws_lb_target_group_attachment', 'aws_alb_target_group_attachment'], changeTypes: ['deleted'] },
];
