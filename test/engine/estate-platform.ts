// A small AWS estate in moto, platform third: ECS cluster, task definition and service, an RDS
// subnet group and instance, a load balancer with a target group and a listener, an Auto
// Scaling group, a Route 53 zone with an A and a TXT record; state attributes in the provider's shape.
import { AutoScalingClient, CreateAutoScalingGroupCommand } from '@aws-sdk/client-auto-scaling';
import { CreateClusterCommand, CreateServiceCommand, ECSClient, RegisterTaskDefinitionCommand } from '@aws-sdk/client-ecs';
import { CreateListenerCommand, CreateLoadBalancerCommand, CreateTargetGroupCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { CreateDBInstanceCommand, CreateDBSubnetGroupCommand, RDSClient } from '@aws-sdk/client-rds';
import { ChangeResourceRecordSetsCommand, CreateHostedZoneCommand, GetHostedZoneCommand, Route53Client } from '@aws-sdk/client-route-53';
import type { NetworkIds, Res } from './estate-network.ts';
import { CREDENTIALS, REGION } from './world.ts';

const withTags = (tags: Record<string, string>) => ({ tags, tags_all: tags });
const tagList = (tags: Record<string, string>) => Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));

export async function buildPlatform(endpoint: string, suffix: string, net: NetworkIds, launchTemplateId: string): Promise<{ resources: Res[]; names: Record<string, string> }> {
  const cfg = { endpoint, region: REGION, credentials: CREDENTIALS };
  const out: Res[] = [];
  const tags = { Team: 'estate' };
  const n = (s: string) => `estate-${s}-${suffix}`;

  const ecs = new ECSClient(cfg);
  const cluster = (await ecs.send(new CreateClusterCommand({ clusterName: n('cluster'), tags: [{ key: 'Team', value: 'estate' }] }))).cluster!;
  out.push({ type: 'aws_ecs_cluster', name: 'main', attributes: {
    id: cluster.clusterArn, arn: cluster.clusterArn, name: n('cluster'), setting: [], configuration: [], service_connect_defaults: [], ...withTags(tags),
  } });
  const containers = [{ name: 'web', image: 'nginx:1.27', cpu: 128, memory: 256, essential: true, portMappings: [{ containerPort: 80, hostPort: 80, protocol: 'tcp' as const }] }];
  const td = (await ecs.send(new RegisterTaskDefinitionCommand({
    family: n('web'), containerDefinitions: containers, networkMode: 'awsvpc', requiresCompatibilities: ['FARGATE'], cpu: '256', memory: '512',
    tags: [{ key: 'Team', value: 'estate' }],
  }))).taskDefinition!;
  out.push({ type: 'aws_ecs_task_definition', name: 'web', attributes: {
    id: n('web'), arn: td.taskDefinitionArn, arn_without_revision: td.taskDefinitionArn?.replace(/:\d+$/, ''), family: n('web'), revision: td.revision,
    container_definitions: JSON.stringify(containers), network_mode: 'awsvpc', requires_compatibilities: ['FARGATE'], cpu: '256', memory: '512',
    execution_role_arn: '', task_role_arn: '', pid_mode: '', ipc_mode: '', volume: [], skip_destroy: false, ...withTags(tags),
  } });
  const svc = (await ecs.send(new CreateServiceCommand({
    cluster: cluster.clusterArn, serviceName: n('svc'), taskDefinition: td.taskDefinitionArn, desiredCount: 2, launchType: 'FARGATE',
    networkConfiguration: { awsvpcConfiguration: { subnets: net.subnetIds, securityGroups: [net.defaultSgId], assignPublicIp: 'DISABLED' } },
    tags: [{ key: 'Team', value: 'estate' }],
  }))).service!;
  out.push({ type: 'aws_ecs_service', name: 'web', attributes: {
    id: svc.serviceArn, name: n('svc'), cluster: cluster.clusterArn, task_definition: `${n('web')}:${td.revision}`, desired_count: 2, launch_type: 'FARGATE',
    scheduling_strategy: svc.schedulingStrategy ?? 'REPLICA', platform_version: svc.platformVersion ?? '', enable_ecs_managed_tags: false, propagate_tags: svc.propagateTags ?? 'NONE',
    enable_execute_command: false, health_check_grace_period_seconds: 0, deployment_maximum_percent: svc.deploymentConfiguration?.maximumPercent ?? 200,
    deployment_minimum_healthy_percent: svc.deploymentConfiguration?.minimumHealthyPercent ?? 100,
    network_configuration: [{ subnets: net.subnetIds, security_groups: [net.defaultSgId], assign_public_ip: false }], load_balancer: [], ...withTags(tags),
  } });

  const rds = new RDSClient(cfg);
  await rds.send(new CreateDBSubnetGroupCommand({ DBSubnetGroupName: n('db'), DBSubnetGroupDescription: 'estate db', SubnetIds: net.subnetIds, Tags: tagList(tags) }));
  out.push({ type: 'aws_db_subnet_group', name: 'db', attributes: {
    id: n('db'), name: n('db'), arn: `arn:aws:rds:${REGION}:123456789012:subgrp:${n('db')}`, description: 'estate db', subnet_ids: net.subnetIds,
    supported_network_types: ['IPV4'], vpc_id: net.vpcId, ...withTags(tags),
  } });
  const db = (await rds.send(new CreateDBInstanceCommand({
    DBInstanceIdentifier: n('pg'), Engine: 'postgres', EngineVersion: '16.3', DBInstanceClass: 'db.t4g.micro', AllocatedStorage: 20, MasterUsername: 'app',
    MasterUserPassword: 'estate-password-1', DBSubnetGroupName: n('db'), VpcSecurityGroupIds: [net.defaultSgId], PubliclyAccessible: false, StorageEncrypted: true,
    BackupRetentionPeriod: 7, DeletionProtection: true, Tags: tagList(tags),
  }))).DBInstance!;
  out.push({ type: 'aws_db_instance', name: 'pg', attributes: {
    id: db.DbiResourceId ?? n('pg'), identifier: n('pg'), arn: db.DBInstanceArn, engine: 'postgres', engine_version: '16', engine_version_actual: '16.3',
    instance_class: 'db.t4g.micro', allocated_storage: 20, max_allocated_storage: 0, storage_type: db.StorageType, iops: db.Iops ?? 0, storage_encrypted: true,
    kms_key_id: db.KmsKeyId ?? '', publicly_accessible: false, multi_az: false, db_subnet_group_name: n('db'), vpc_security_group_ids: [net.defaultSgId],
    backup_retention_period: 7, backup_window: db.PreferredBackupWindow, maintenance_window: db.PreferredMaintenanceWindow, deletion_protection: true,
    iam_database_authentication_enabled: false, port: db.Endpoint?.Port ?? 5432, username: 'app', password: null, db_name: '', parameter_group_name: db.DBParameterGroups?.[0]?.DBParameterGroupName,
    ca_cert_identifier: db.CACertificateIdentifier, performance_insights_enabled: db.PerformanceInsightsEnabled ?? false, monitoring_interval: db.MonitoringInterval ?? 0,
    auto_minor_version_upgrade: db.AutoMinorVersionUpgrade ?? true, copy_tags_to_snapshot: db.CopyTagsToSnapshot ?? false, skip_final_snapshot: true,
    address: db.Endpoint?.Address, endpoint: `${db.Endpoint?.Address}:${db.Endpoint?.Port}`, status: 'available', ...withTags(tags),
  } });

  const elb = new ElasticLoadBalancingV2Client(cfg);
  const lb = (await elb.send(new CreateLoadBalancerCommand({ Name: n('lb').slice(0, 32), Subnets: net.subnetIds, SecurityGroups: [net.defaultSgId], Scheme: 'internal', Tags: tagList(tags) }))).LoadBalancers![0];
  out.push({ type: 'aws_lb', name: 'web', attributes: {
    id: lb.LoadBalancerArn, arn: lb.LoadBalancerArn, name: lb.LoadBalancerName, internal: true, load_balancer_type: 'application', security_groups: [net.defaultSgId],
    subnets: net.subnetIds, ip_address_type: 'ipv4', dns_name: lb.DNSName, zone_id: lb.CanonicalHostedZoneId, vpc_id: net.vpcId, enable_deletion_protection: false,
    idle_timeout: 60, enable_http2: true, drop_invalid_header_fields: false, access_logs: [{ bucket: '', enabled: false, prefix: '' }], subnet_mapping: [], ...withTags(tags),
  } });
  const tg = (await elb.send(new CreateTargetGroupCommand({ Name: n('tg').slice(0, 32), Protocol: 'HTTP', Port: 80, VpcId: net.vpcId, TargetType: 'ip', Tags: tagList(tags) }))).TargetGroups![0];
  out.push({ type: 'aws_lb_target_group', name: 'web', attributes: {
    id: tg.TargetGroupArn, arn: tg.TargetGroupArn, name: tg.TargetGroupName, port: 80, protocol: 'HTTP', protocol_version: tg.ProtocolVersion ?? 'HTTP1', vpc_id: net.vpcId,
    target_type: 'ip', ip_address_type: tg.IpAddressType ?? 'ipv4', deregistration_delay: '300',
    health_check: [{ enabled: tg.HealthCheckEnabled ?? true, healthy_threshold: tg.HealthyThresholdCount, unhealthy_threshold: tg.UnhealthyThresholdCount, interval: tg.HealthCheckIntervalSeconds,
      timeout: tg.HealthCheckTimeoutSeconds, path: tg.HealthCheckPath ?? '', port: tg.HealthCheckPort, protocol: tg.HealthCheckProtocol, matcher: tg.Matcher?.HttpCode ?? '' }],
    ...withTags(tags),
  } });
  const listener = (await elb.send(new CreateListenerCommand({ LoadBalancerArn: lb.LoadBalancerArn, Protocol: 'HTTP', Port: 80, DefaultActions: [{ Type: 'forward', TargetGroupArn: tg.TargetGroupArn }] }))).Listeners![0];
  out.push({ type: 'aws_lb_listener', name: 'http', attributes: {
    id: listener.ListenerArn, arn: listener.ListenerArn, load_balancer_arn: lb.LoadBalancerArn, port: 80, protocol: 'HTTP', ssl_policy: listener.SslPolicy ?? '', certificate_arn: null, alpn_policy: null, // ssl_policy: what the API answers, as the provider stores it
    default_action: [{ type: 'forward', order: 1, target_group_arn: tg.TargetGroupArn, redirect: [], fixed_response: [], forward: [], authenticate_oidc: [], authenticate_cognito: [] }],
    tags: {}, tags_all: {},
  } });

  const asg = new AutoScalingClient(cfg);
  await asg.send(new CreateAutoScalingGroupCommand({
    AutoScalingGroupName: n('asg'), MinSize: 0, MaxSize: 2, DesiredCapacity: 0, VPCZoneIdentifier: net.subnetIds.join(','),
    LaunchTemplate: { LaunchTemplateId: launchTemplateId, Version: '$Latest' }, Tags: [{ Key: 'Team', Value: 'estate', PropagateAtLaunch: true }],
  }));
  out.push({ type: 'aws_autoscaling_group', name: 'web', attributes: {
    id: n('asg'), name: n('asg'), arn: `arn:aws:autoscaling:${REGION}:123456789012:autoScalingGroup:x:autoScalingGroupName/${n('asg')}`, min_size: 0, max_size: 2, desired_capacity: 0,
    default_cooldown: 300, health_check_type: 'EC2', health_check_grace_period: 300, launch_configuration: '',
    launch_template: [{ id: launchTemplateId, name: `estate-${suffix}`, version: '$Latest' }], vpc_zone_identifier: net.subnetIds, availability_zones: net.azs,
    target_group_arns: [], load_balancers: [], termination_policies: [], max_instance_lifetime: 0, capacity_rebalance: false, protect_from_scale_in: false,
    tag: [{ key: 'Team', value: 'estate', propagate_at_launch: true }], force_delete: false, wait_for_capacity_timeout: '10m',
  } });

  const r53 = new Route53Client(cfg);
  const zoneName = `estate-${suffix}.example.com`;
  const zone = (await r53.send(new CreateHostedZoneCommand({ Name: zoneName, CallerReference: suffix, HostedZoneConfig: { Comment: 'Managed by Terraform' } }))).HostedZone!;
  const zoneId = zone.Id!.replace('/hostedzone/', '');
  const ns = (await r53.send(new GetHostedZoneCommand({ Id: zoneId }))).DelegationSet?.NameServers ?? [];
  out.push({ type: 'aws_route53_zone', name: 'main', attributes: {
    id: zoneId, zone_id: zoneId, name: zoneName, comment: 'Managed by Terraform', name_servers: ns, vpc: [], force_destroy: false, delegation_set_id: '',
    arn: `arn:aws:route53:::hostedzone/${zoneId}`, primary_name_server: ns[0] ?? '', tags: {}, tags_all: {},
  } });
  await r53.send(new ChangeResourceRecordSetsCommand({ HostedZoneId: zoneId, ChangeBatch: { Changes: [
    { Action: 'CREATE', ResourceRecordSet: { Name: `www.${zoneName}`, Type: 'A', TTL: 300, ResourceRecords: [{ Value: '10.20.0.10' }, { Value: '10.20.0.11' }] } },
    { Action: 'CREATE', ResourceRecordSet: { Name: zoneName, Type: 'TXT', TTL: 300, ResourceRecords: [{ Value: '"v=spf1 -all"' }] } },
  ] } }));
  const record = (name: string, fqdn: string, type: string, records: string[]) => ({
    id: `${zoneId}_${fqdn}_${type}`, zone_id: zoneId, name, fqdn, type, ttl: 300, records, alias: [], set_identifier: '', health_check_id: '',
    weighted_routing_policy: [], failover_routing_policy: [], latency_routing_policy: [], geolocation_routing_policy: [], allow_overwrite: null,
  });
  out.push({ type: 'aws_route53_record', name: 'www', attributes: record(`www.${zoneName}`, `www.${zoneName}`, 'A', ['10.20.0.10', '10.20.0.11']) });
  out.push({ type: 'aws_route53_record', name: 'spf', attributes: record(zoneName, zoneName, 'TXT', ['v=spf1 -all']) });

  return { resources: out, names: { cluster: cluster.clusterArn!, service: n('svc'), db: n('pg'), lb: lb.LoadBalancerArn!, zoneId, asg: n('asg') } };
}
