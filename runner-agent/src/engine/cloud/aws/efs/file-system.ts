// aws_efs_file_system and aws_efs_mount_target. File systems: DescribeFileSystems once per region
// for the scan (every page; the API reads one id or all), plus DescribeLifecycleConfiguration per
// file system whose state holds lifecycle_policy. Mount targets: DescribeMountTargets once per
// file system (all its targets) and DescribeMountTargetSecurityGroups per target.
import {
  DescribeFileSystemsCommand, DescribeLifecycleConfigurationCommand, DescribeMountTargetsCommand, DescribeMountTargetSecurityGroupsCommand,
  type DescribeFileSystemsCommandOutput, type DescribeLifecycleConfigurationCommandOutput, type DescribeMountTargetsCommandOutput,
  type DescribeMountTargetSecurityGroupsCommandOutput, type FileSystemDescription, type MountTargetDescription,
} from '@aws-sdk/client-efs';
import { genericKey } from '../../../diff.ts';
import { mapLimit } from '../../../limit.ts';
import { tagMap } from '../../../values.ts';
import { errorName, PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { once, str, type TypeReader } from '../reader.ts';
import { EFS_ANSWERS } from './answers.ts';

const fileSystems = (ctx: AwsContext, region: string) => once(ctx, `efs:DescribeFileSystems:${region}`, async () => {
  const out = new Map<string, FileSystemDescription>();
  let marker: string | undefined;
  do {
    const page = await ctx.send<DescribeFileSystemsCommandOutput>(ctx.efs(region), new DescribeFileSystemsCommand({ Marker: marker }), 'elasticfilesystem:DescribeFileSystems');
    for (const f of page.FileSystems ?? []) if (f.FileSystemId) out.set(f.FileSystemId, f);
    marker = page.NextMarker;
  } while (marker);
  return out;
});

const gone = (e: unknown) => ['FileSystemNotFound', 'MountTargetNotFound'].includes(errorName(e));

export const efsFileSystemReader: TypeReader = {
  spec: { sets: { lifecycle_policy: genericKey } },
  answers: EFS_ANSWERS,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const state = instance.attributes;
    const f = (await fileSystems(ctx, region)).get(str(state.id));
    if (!f || f.LifeCycleState === 'deleted' || f.LifeCycleState === 'deleting') return null;
    let lifecycle: Record<string, string>[] | undefined;
    if ('lifecycle_policy' in state) {
      try {
        const l = await ctx.send<DescribeLifecycleConfigurationCommandOutput>(ctx.efs(region), new DescribeLifecycleConfigurationCommand({ FileSystemId: f.FileSystemId }),
          'elasticfilesystem:DescribeLifecycleConfiguration');
        lifecycle = (l.LifecyclePolicies ?? []).map((p) => ({
          transition_to_ia: p.TransitionToIA ?? '', transition_to_primary_storage_class: p.TransitionToPrimaryStorageClass ?? '', transition_to_archive: p.TransitionToArchive ?? '',
        }));
      } catch (e) {
        if (!gone(e)) throw e;
        return null;
      }
    }
    const tags = tagMap(f.Tags);
    return {
      id: f.FileSystemId, creation_token: f.CreationToken, encrypted: f.Encrypted ?? false, kms_key_id: f.KmsKeyId ?? '', performance_mode: f.PerformanceMode,
      throughput_mode: f.ThroughputMode, provisioned_throughput_in_mibps: f.ProvisionedThroughputInMibps ?? 0, availability_zone_name: f.AvailabilityZoneName ?? '',
      ...(lifecycle ? { lifecycle_policy: lifecycle } : {}), tags, tags_all: tags,
    };
  }),
};

/** Every mount target of a file system (undefined when the file system is gone). */
const mountTargets = (ctx: AwsContext, region: string, fs: string) => once(ctx, `efs:DescribeMountTargets:${fs}`, async () => {
  const out: MountTargetDescription[] = [];
  let marker: string | undefined;
  try {
    do {
      const page = await ctx.send<DescribeMountTargetsCommandOutput>(ctx.efs(region), new DescribeMountTargetsCommand({ FileSystemId: fs, Marker: marker }),
        'elasticfilesystem:DescribeMountTargets');
      out.push(...(page.MountTargets ?? []));
      marker = page.NextMarker;
    } while (marker);
  } catch (e) {
    if (gone(e)) return undefined;
    throw e;
  }
  return out;
});

export const efsMountTargetReader: TypeReader = {
  spec: {},
  answers: EFS_ANSWERS,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const state = instance.attributes;
    const m = (await mountTargets(ctx, region, str(state.file_system_id)))?.find((x) => x.MountTargetId === str(state.id));
    if (!m || m.LifeCycleState === 'deleted' || m.LifeCycleState === 'deleting') return null;
    let groups: string[] | undefined;
    if ('security_groups' in state) {
      try {
        const g = await ctx.send<DescribeMountTargetSecurityGroupsCommandOutput>(ctx.efs(region), new DescribeMountTargetSecurityGroupsCommand({ MountTargetId: m.MountTargetId }),
          'elasticfilesystem:DescribeMountTargetSecurityGroups');
        groups = g.SecurityGroups ?? [];
      } catch (e) {
        if (!gone(e)) throw e;
        return null;
      }
    }
    return {
      id: m.MountTargetId, file_system_id: m.FileSystemId, subnet_id: m.SubnetId, ip_address: m.IpAddress ?? '',
      network_interface_id: m.NetworkInterfaceId, availability_zone_name: m.AvailabilityZoneName, ...(groups ? { security_groups: groups } : {}),
    };
  }),
};
