// EC2 compute: instances, EBS volumes, key pairs, launch templates and Auto Scaling groups. Here: each
// type's reader, the attributes never reported as drift (computed, write-only or Terraform-side) and
// the family's severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { autoscalingGroupReader } from './autoscaling.ts';
import { ebsVolumeReader, keyPairReader, launchTemplateReader } from './compute.ts';
import { instanceReader } from './instance.ts';

export const EC2_READERS: Record<string, TypeReader> = {
  aws_instance: instanceReader,
  aws_ebs_volume: ebsVolumeReader,
  aws_key_pair: keyPairReader,
  aws_launch_template: launchTemplateReader,
  aws_autoscaling_group: autoscalingGroupReader,
};

export const EC2_IGNORED: Record<string, string[]> = {
  aws_instance: [
    'private_dns', 'public_dns', 'public_ip', 'primary_network_interface_id', 'cpu_core_count',
    'cpu_threads_per_core', 'cpu_options', 'instance_state', 'password_data', 'outpost_arn', 'host_id',
    'ipv6_address_count', 'ipv6_addresses', 'network_interface', 'root_block_device', 'ebs_block_device',
    'ephemeral_block_device', 'launch_template', 'instance_lifecycle', 'spot_instance_request_id',
    'private_dns_name_options', 'metadata_options', 'capacity_reservation_specification',
    'maintenance_options', 'enclave_options', 'credit_specification', 'user_data_replace_on_change',
    'get_password_data', 'secondary_private_ips', 'associate_public_ip_address', 'security_groups',
  ],
  aws_key_pair: ['key_pair_id', 'fingerprint', 'key_name_prefix', 'public_key'],
  aws_launch_template: ['latest_version', 'name_prefix', 'update_default_version'],
  aws_autoscaling_group: ['name_prefix', 'force_delete', 'force_delete_warm_pool', 'wait_for_capacity_timeout', 'min_elb_capacity', 'wait_for_elb_capacity', 'predicted_capacity'],
};

/** First match wins across the whole table (rules.ts): a family's specific rules come before its broader ones. */
export const EC2_RULES: SeverityRule[] = [
  { id: 'instance-access-changed', severity: 'high', description: 'Instance security groups or instance profile changed',
    rationale: 'The network exposure or cloud permissions of the instance changed.',
    types: ['aws_instance'], attributes: ['vpc_security_group_ids', 'iam_instance_profile'] },
  { id: 'instance-type-changed', severity: 'medium', description: 'Instance type changed',
    rationale: 'Cost and capacity changed; no access is affected.',
    types: ['aws_instance'], attributes: ['instance_type'] },
];
