// What an instance fleet is made of beyond instances and launch templates: launch configurations,
// scaling policies, images taken from instances, volume and target group attachments. Spread into
// AWS_READERS, ignore.ts and rules.ts.
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { amiReader } from './ami.ts';
import { targetGroupAttachmentReader, volumeAttachmentReader } from './attachments.ts';
import { launchConfigurationReader } from './launch-configuration.ts';
import { FLEET_RULES as RULES } from './rules.ts';
import { autoscalingPolicyReader } from './scaling-policy.ts';

export const FLEET_READERS: Record<string, TypeReader> = {
  aws_launch_configuration: launchConfigurationReader,
  aws_autoscaling_policy: autoscalingPolicyReader,
  aws_ami_from_instance: amiReader,
  aws_ami: amiReader,
  aws_ami_copy: amiReader,
  aws_volume_attachment: volumeAttachmentReader,
  aws_lb_target_group_attachment: targetGroupAttachmentReader,
  aws_alb_target_group_attachment: targetGroupAttachmentReader,
};

// Write-only inputs (user data is kept as a hash), block devices the API reports with computed
// defaults, and what only the configuration holds.
const AMI = ['source_instance_id', 'snapshot_without_reboot', 'image_location', 'owner_id', 'manage_ebs_snapshots', 'ebs_block_device', 'ephemeral_block_device',
  'root_snapshot_id', 'platform', 'platform_details', 'usage_operation', 'image_owner_alias', 'image_type', 'hypervisor', 'kernel_id', 'ramdisk_id',
  'boot_mode', 'deprecation_time', 'imds_support', 'tpm_support', 'source_ami_id', 'source_ami_region', 'encrypted', 'kms_key_id', 'destination_outpost_arn', 'last_launched_time'];

export const FLEET_IGNORED: Record<string, string[]> = {
  aws_launch_configuration: ['name_prefix', 'user_data', 'user_data_base64', 'ebs_block_device', 'root_block_device', 'ephemeral_block_device', 'metadata_options',
    'vpc_classic_link_id', 'vpc_classic_link_security_groups'],
  aws_autoscaling_policy: ['predictive_scaling_configuration', 'target_tracking_configuration.*.customized_metric_specification'],
  aws_ami_from_instance: AMI,
  aws_ami: AMI,
  aws_ami_copy: AMI,
  aws_volume_attachment: ['force_detach', 'skip_destroy', 'stop_instance_before_detaching'],
  aws_lb_target_group_attachment: [],
};

export const FLEET_RULES: SeverityRule[] = RULES;
