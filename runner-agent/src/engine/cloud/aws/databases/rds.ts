// aws_db_instance: DescribeDBInstances filtered by db-instance-id, 100 ids a call (unknown ids
// are simply absent); aws_db_subnet_group: one DescribeDBSubnetGroups per group (the API
// supports no filter) plus its tags. Engine versions compare at the precision the state gives.
import {
  DescribeDBInstances$, DescribeDBInstancesCommand, DescribeDBSubnetGroups$, DescribeDBSubnetGroupsCommand, ListTagsForResource$, ListTagsForResourceCommand,
  type DBInstance, type DescribeDBInstancesCommandOutput, type DescribeDBSubnetGroupsCommandOutput, type ListTagsForResourceCommandOutput,
} from '@aws-sdk/client-rds';
import { chunk, mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, byRegion, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { attrsOf, bool, FakeError, list, num, opt, stateTags, tagList } from '../replay/kit.ts';

const FILTER_VALUES = 100;
const identifierOf = (a: Record<string, unknown>) => str(a.identifier || a.id);

/** "14.7" live against "14" in the state is no drift: the provider keeps the configured prefix. */
const versionAs = (live: string | undefined, state: unknown) => {
  const s = str(state);
  return live && s && live.startsWith(`${s}.`) ? s : live;
};

function instanceAttributes(d: DBInstance, state: Record<string, unknown>): LiveAttributes {
  const tags = tagMap(d.TagList);
  return {
    identifier: d.DBInstanceIdentifier, arn: d.DBInstanceArn, engine: d.Engine, engine_version: versionAs(d.EngineVersion, state.engine_version),
    instance_class: d.DBInstanceClass, allocated_storage: d.AllocatedStorage, max_allocated_storage: d.MaxAllocatedStorage ?? 0, storage_type: d.StorageType,
    iops: d.Iops ?? 0, storage_encrypted: d.StorageEncrypted ?? false, kms_key_id: d.KmsKeyId ?? '', publicly_accessible: d.PubliclyAccessible ?? false,
    multi_az: d.MultiAZ ?? false, db_subnet_group_name: d.DBSubnetGroup?.DBSubnetGroupName ?? '',
    vpc_security_group_ids: (d.VpcSecurityGroups ?? []).map((g) => g.VpcSecurityGroupId), backup_retention_period: d.BackupRetentionPeriod,
    backup_window: d.PreferredBackupWindow, maintenance_window: d.PreferredMaintenanceWindow, deletion_protection: d.DeletionProtection ?? false,
    iam_database_authentication_enabled: d.IAMDatabaseAuthenticationEnabled ?? false, port: d.Endpoint?.Port ?? d.DbInstancePort, username: d.MasterUsername,
    db_name: d.DBName ?? '', parameter_group_name: d.DBParameterGroups?.[0]?.DBParameterGroupName, ca_cert_identifier: d.CACertificateIdentifier,
    performance_insights_enabled: d.PerformanceInsightsEnabled ?? false, monitoring_interval: d.MonitoringInterval ?? 0,
    auto_minor_version_upgrade: d.AutoMinorVersionUpgrade, copy_tags_to_snapshot: d.CopyTagsToSnapshot ?? false, tags, tags_all: tags,
  };
}

export const dbInstanceReader: TypeReader = {
  spec: {},
  answers: [answer<{ Filters?: { Name: string; Values: string[] }[] }>('rds', DescribeDBInstances$, (input, world) => {
    const ids = new Set(input.Filters?.find((f) => f.Name === 'db-instance-id')?.Values ?? []);
    return { DBInstances: attrsOf(world, 'aws_db_instance').filter((a) => ids.has(identifierOf(a)) || ids.has(str(a.arn))).map((a) => ({
      DBInstanceIdentifier: identifierOf(a), DBInstanceArn: opt(a.arn), Engine: opt(a.engine), EngineVersion: opt(a.engine_version_actual) ?? opt(a.engine_version),
      DBInstanceClass: opt(a.instance_class), AllocatedStorage: num(a.allocated_storage), MaxAllocatedStorage: num(a.max_allocated_storage) || undefined,
      StorageType: opt(a.storage_type), Iops: num(a.iops) || undefined, StorageEncrypted: bool(a.storage_encrypted), KmsKeyId: opt(a.kms_key_id),
      PubliclyAccessible: bool(a.publicly_accessible), MultiAZ: bool(a.multi_az), DBSubnetGroup: opt(a.db_subnet_group_name) ? { DBSubnetGroupName: str(a.db_subnet_group_name) } : undefined,
      VpcSecurityGroups: list(a.vpc_security_group_ids).map((VpcSecurityGroupId) => ({ VpcSecurityGroupId, Status: 'active' })),
      BackupRetentionPeriod: num(a.backup_retention_period), PreferredBackupWindow: opt(a.backup_window), PreferredMaintenanceWindow: opt(a.maintenance_window),
      DeletionProtection: bool(a.deletion_protection), IAMDatabaseAuthenticationEnabled: bool(a.iam_database_authentication_enabled),
      Endpoint: num(a.port) ? { Port: num(a.port), Address: opt(a.address) } : undefined, MasterUsername: opt(a.username), DBName: opt(a.db_name ?? a.name),
      DBParameterGroups: opt(a.parameter_group_name) ? [{ DBParameterGroupName: str(a.parameter_group_name) }] : undefined, CACertificateIdentifier: opt(a.ca_cert_identifier),
      PerformanceInsightsEnabled: bool(a.performance_insights_enabled), MonitoringInterval: num(a.monitoring_interval), AutoMinorVersionUpgrade: bool(a.auto_minor_version_upgrade),
      CopyTagsToSnapshot: bool(a.copy_tags_to_snapshot), DBInstanceStatus: 'available', TagList: tagList(stateTags(a)),
    })) };
  })],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const found = new Map<string, DBInstance>();
      for (const part of chunk([...new Set(group.map((g) => identifierOf(g.item.instance.attributes)))], FILTER_VALUES)) {
        let marker: string | undefined;
        do {
          const page = await ctx.send<DescribeDBInstancesCommandOutput>(ctx.rds(region), new DescribeDBInstancesCommand({
            Filters: [{ Name: 'db-instance-id', Values: part }], Marker: marker, MaxRecords: 100,
          }), 'rds:DescribeDBInstances');
          for (const d of page.DBInstances ?? []) if (d.DBInstanceIdentifier) found.set(d.DBInstanceIdentifier, d);
          marker = page.Marker;
        } while (marker);
      }
      for (const { item, index } of group) {
        const d = found.get(identifierOf(item.instance.attributes));
        if (d && d.DBInstanceStatus !== 'deleting') out[index] = instanceAttributes(d, item.instance.attributes);
      }
    }
    return out;
  },
};

const groupNameOf = (a: Record<string, unknown>) => str(a.name || a.id);

export const dbSubnetGroupReader: TypeReader = {
  spec: {},
  answers: [
    answer<{ DBSubnetGroupName?: string }>('rds', DescribeDBSubnetGroups$, (input, world) => {
      const a = attrsOf(world, 'aws_db_subnet_group').find((x) => groupNameOf(x) === input.DBSubnetGroupName);
      if (!a) throw new FakeError('DBSubnetGroupNotFoundFault', `DB subnet group '${input.DBSubnetGroupName}' not found`, 404);
      return { DBSubnetGroups: [{
        DBSubnetGroupName: groupNameOf(a), DBSubnetGroupArn: opt(a.arn), DBSubnetGroupDescription: opt(a.description), VpcId: opt(a.vpc_id),
        Subnets: list(a.subnet_ids).map((SubnetIdentifier) => ({ SubnetIdentifier })),
      }] };
    }),
    answer<{ ResourceName: string }>('rds', ListTagsForResource$, (input, world) => {
      const a = [...attrsOf(world, 'aws_db_subnet_group'), ...attrsOf(world, 'aws_db_instance'), ...attrsOf(world, 'aws_db_parameter_group')].find((x) => str(x.arn) === input.ResourceName);
      return { TagList: a ? tagList(stateTags(a)) : [] };
    }),
  ],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const rds = ctx.rds(region);
    const g = (await unlessAbsent(ctx.send<DescribeDBSubnetGroupsCommandOutput>(rds, new DescribeDBSubnetGroupsCommand({ DBSubnetGroupName: groupNameOf(instance.attributes) }), 'rds:DescribeDBSubnetGroups'), ['DBSubnetGroupNotFoundFault']))?.DBSubnetGroups?.[0];
    if (!g) return null;
    const tags = tagMap((await ctx.send<ListTagsForResourceCommandOutput>(rds, new ListTagsForResourceCommand({ ResourceName: g.DBSubnetGroupArn }), 'rds:ListTagsForResource')).TagList);
    return {
      name: g.DBSubnetGroupName, arn: g.DBSubnetGroupArn, description: g.DBSubnetGroupDescription ?? '', subnet_ids: (g.Subnets ?? []).map((s) => s.SubnetIdentifier),
      tags, tags_all: tags,
    };
  }),
};
