// Replay answers for the EFS readers, from aws_efs_file_system and aws_efs_mount_target states
// (a mount target's file system exists when the state names it).
import {
  DescribeFileSystems$, DescribeLifecycleConfiguration$, DescribeMountTargets$, DescribeMountTargetSecurityGroups$,
} from '@aws-sdk/client-efs';
import { isObject } from '../../../values.ts';
import { answer, str, type FakeWorld } from '../reader.ts';
import { attrsOf, bool, FakeError, list, num, opt, stateTags, tagList } from '../replay/kit.ts';

const fileSystem = (world: FakeWorld, id: string) => {
  const known = attrsOf(world, 'aws_efs_file_system').find((a) => str(a.id) === id)
    ?? (attrsOf(world, 'aws_efs_mount_target').some((m) => str(m.file_system_id) === id) ? { id } : undefined);
  if (!known) throw new FakeError('FileSystemNotFound', `File system '${id}' does not exist.`, 404);
  return known;
};
const mountTarget = (world: FakeWorld, id: string) => {
  const m = attrsOf(world, 'aws_efs_mount_target').find((a) => str(a.id) === id);
  if (!m) throw new FakeError('MountTargetNotFound', `Mount target '${id}' does not exist.`, 404);
  return m;
};

export const EFS_ANSWERS = [
  answer<{ FileSystemId?: string }>('elasticfilesystem', DescribeFileSystems$, (input, world) => ({
    FileSystems: attrsOf(world, 'aws_efs_file_system').filter((a) => !input.FileSystemId || str(a.id) === input.FileSystemId).map((a) => ({
      FileSystemId: str(a.id), CreationToken: opt(a.creation_token), Encrypted: bool(a.encrypted), KmsKeyId: opt(a.kms_key_id), PerformanceMode: opt(a.performance_mode),
      ThroughputMode: opt(a.throughput_mode), ProvisionedThroughputInMibps: num(a.provisioned_throughput_in_mibps) || undefined,
      AvailabilityZoneName: opt(a.availability_zone_name), LifeCycleState: 'available', OwnerId: opt(a.owner_id) ?? '000000000000', CreationTime: new Date(0),
      NumberOfMountTargets: 0, SizeInBytes: { Value: 0 }, Tags: tagList(stateTags(a)),
    })),
  })),
  answer<{ FileSystemId: string }>('elasticfilesystem', DescribeLifecycleConfiguration$, (input, world) => ({
    LifecyclePolicies: (Array.isArray(fileSystem(world, input.FileSystemId).lifecycle_policy) ? fileSystem(world, input.FileSystemId).lifecycle_policy as unknown[] : [])
      .filter(isObject).map((p) => ({
        TransitionToIA: opt(p.transition_to_ia), TransitionToPrimaryStorageClass: opt(p.transition_to_primary_storage_class), TransitionToArchive: opt(p.transition_to_archive),
      })),
  })),
  answer<{ FileSystemId?: string; MountTargetId?: string }>('elasticfilesystem', DescribeMountTargets$, (input, world) => {
    if (input.FileSystemId) fileSystem(world, input.FileSystemId);
    const all = attrsOf(world, 'aws_efs_mount_target')
      .filter((m) => (!input.FileSystemId || str(m.file_system_id) === input.FileSystemId) && (!input.MountTargetId || str(m.id) === input.MountTargetId));
    return { MountTargets: all.map((m) => ({
      MountTargetId: str(m.id), FileSystemId: str(m.file_system_id), SubnetId: opt(m.subnet_id), IpAddress: opt(m.ip_address), LifeCycleState: 'available',
      NetworkInterfaceId: opt(m.network_interface_id), AvailabilityZoneName: opt(m.availability_zone_name), AvailabilityZoneId: opt(m.availability_zone_id), OwnerId: opt(m.owner_id),
    })) };
  }),
  answer<{ MountTargetId: string }>('elasticfilesystem', DescribeMountTargetSecurityGroups$, (input, world) => ({ SecurityGroups: list(mountTarget(world, input.MountTargetId).security_groups) })),
];
