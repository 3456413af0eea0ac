// EFS: file systems and mount targets. Spread into AWS_READERS, ignore.ts and rules.ts.
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { efsFileSystemReader, efsMountTargetReader } from './file-system.ts';

export const EFS_READERS: Record<string, TypeReader> = {
  aws_efs_file_system: efsFileSystemReader,
  aws_efs_mount_target: efsMountTargetReader,
};

/** Computed values (sizes and counts change with use; names and DNS derive from the id and tags). */
export const EFS_IGNORED: Record<string, string[]> = {
  aws_efs_file_system: ['dns_name', 'size_in_bytes', 'number_of_mount_targets', 'owner_id', 'availability_zone_id', 'name', 'creation_token_prefix', 'protection'],
  aws_efs_mount_target: ['dns_name', 'mount_target_dns_name', 'file_system_arn', 'owner_id', 'availability_zone_id', 'availability_zone_name', 'network_interface_id',
    'ip_address_type', 'ipv6_address'],
};

export const EFS_RULES: SeverityRule[] = [
  { id: 'efs-encryption-or-policy-changed', severity: 'high', description: 'EFS file system encryption, key or lifecycle policy changed',
    rationale: 'How the files are encrypted at rest, or when they move storage class, differs from what was reviewed.',
    types: ['aws_efs_file_system'], changeTypes: ['changed'], attributes: ['encrypted', 'kms_key_id', 'lifecycle_policy*'] },
  { id: 'efs-mount-target-access-changed', severity: 'high', description: 'EFS mount target security groups or subnet changed',
    rationale: 'Which networks reach the file system changed outside review.',
    types: ['aws_efs_mount_target'], changeTypes: ['changed'], attributes: ['security_groups', 'subnet_id'] },
];
