// The out-of-band changes terraform-verdict-network.test.ts makes with the SDK after applying
// network.tf: attribute changes, rules opened and revoked, a route deleted, tags and deletions,
// and a change Terraform does not report (a group the code does not declare), which the engine
// must not report either.
import { UpdateAutoScalingGroupCommand } from '@aws-sdk/client-auto-scaling';
import {
  AuthorizeSecurityGroupIngressCommand, CreateSecurityGroupCommand, DeleteKeyPairCommand, DeleteRouteCommand, ModifyInstanceAttributeCommand,
  ModifyNetworkInterfaceAttributeCommand, ModifySubnetAttributeCommand, ModifyVolumeCommand, RevokeSecurityGroupEgressCommand, RevokeSecurityGroupIngressCommand,
} from '@aws-sdk/client-ec2';
import { TagResourceCommand as TagEcsCommand, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import { ModifyListenerCommand, ModifyTargetGroupCommand } from '@aws-sdk/client-elastic-load-balancing-v2';
import { ModifyDBSubnetGroupCommand } from '@aws-sdk/client-rds';
import { tag, type Change } from './changes.ts';

/** Out-of-band changes to managed resources, one line each; several on one address count once in the comparison. */
export const NETWORK_CHANGES: Change[] = [
  { address: 'aws_security_group.web', what: 'ingress 22 opened to 0.0.0.0/0', run: (c, a) => c.ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: a('aws_security_group.web', 'id'), IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] })) },
  { address: 'aws_vpc.main', what: 'tag Env edited', run: (c, a) => tag(c, a('aws_vpc.main', 'id')) },
  { address: 'aws_subnet.a', what: 'public IPs on launch turned on', run: (c, a) => c.ec2.send(new ModifySubnetAttributeCommand({ SubnetId: a('aws_subnet.a', 'id'), MapPublicIpOnLaunch: { Value: true } })) },
  { address: 'aws_route.world', what: 'the 0.0.0.0/0 route deleted', run: (c, a) => c.ec2.send(new DeleteRouteCommand({ RouteTableId: a('aws_route.world', 'route_table_id'), DestinationCidrBlock: '0.0.0.0/0' })) },
  { address: 'aws_security_group_rule.db_in', what: 'rule revoked', run: (c, a) => c.ec2.send(new RevokeSecurityGroupIngressCommand({ GroupId: a('aws_security_group.db', 'id'), IpPermissions: [{ IpProtocol: 'tcp', FromPort: 5432, ToPort: 5432, IpRanges: [{ CidrIp: '10.40.0.0/16' }] }] })) },
  { address: 'aws_vpc_security_group_egress_rule.db_out', what: 'rule revoked', run: (c, a) => c.ec2.send(new RevokeSecurityGroupEgressCommand({ GroupId: a('aws_security_group.db', 'id'), SecurityGroupRuleIds: [a('aws_vpc_security_group_egress_rule.db_out', 'id')] })) },
  { address: 'aws_network_interface.eni', what: 'description edited', run: (c, a) => c.ec2.send(new ModifyNetworkInterfaceAttributeCommand({ NetworkInterfaceId: a('aws_network_interface.eni', 'id'), Description: { Value: 'edited' } })) },
  { address: 'aws_nat_gateway.nat', what: 'tag added', run: (c, a) => tag(c, a('aws_nat_gateway.nat', 'id')) },
  { address: 'aws_instance.web', what: 'termination protection turned on', run: (c, a) => c.ec2.send(new ModifyInstanceAttributeCommand({ InstanceId: a('aws_instance.web', 'id'), DisableApiTermination: { Value: true } })) },
  { address: 'aws_ebs_volume.data', what: 'grown to 16 GiB', run: (c, a) => c.ec2.send(new ModifyVolumeCommand({ VolumeId: a('aws_ebs_volume.data', 'id'), Size: 16 })) },
  { address: 'aws_key_pair.deploy', what: 'deleted', run: (c, a) => c.ec2.send(new DeleteKeyPairCommand({ KeyName: a('aws_key_pair.deploy', 'key_name') })) },
  { address: 'aws_eip.nat', what: 'tag added', run: (c, a) => tag(c, a('aws_eip.nat', 'id')) },
  { address: 'aws_autoscaling_group.app', what: 'max size 2 -> 5', run: (c, a) => c.autoscaling.send(new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: a('aws_autoscaling_group.app', 'name'), MaxSize: 5 })) },
  { address: 'aws_ecs_cluster.main', what: 'tag added', run: (c, a) => c.ecs.send(new TagEcsCommand({ resourceArn: a('aws_ecs_cluster.main', 'arn'), tags: [{ key: 'Env', value: 'prod' }] })) },
  { address: 'aws_ecs_service.app', what: 'desired count 0 -> 2', run: (c, a) => c.ecs.send(new UpdateServiceCommand({ cluster: a('aws_ecs_service.app', 'cluster'), service: a('aws_ecs_service.app', 'name'), desiredCount: 2 })) },
  { address: 'aws_db_subnet_group.main', what: 'description edited', run: (c, a) => c.rds.send(new ModifyDBSubnetGroupCommand({ DBSubnetGroupName: a('aws_db_subnet_group.main', 'name'), DBSubnetGroupDescription: 'edited', SubnetIds: [a('aws_subnet.a', 'id'), a('aws_subnet.b', 'id')] })) },
  { address: 'aws_lb_target_group.web', what: 'health check path edited', run: (c, a) => c.elb.send(new ModifyTargetGroupCommand({ TargetGroupArn: a('aws_lb_target_group.web', 'arn'), HealthCheckPath: '/health' })) },
  { address: 'aws_lb_listener.web', what: 'port 80 -> 8080', run: (c, a) => c.elb.send(new ModifyListenerCommand({ ListenerArn: a('aws_lb_listener.web', 'arn'), Port: 8080 })) },
];

/** Changes Terraform does not report: nothing the code manages holds them. */
export const NETWORK_SILENT: Change[] = [
  { address: '(unmanaged group)', what: 'a security group the code does not declare, in its VPC', run: (c, a, s) => c.ec2.send(new CreateSecurityGroupCommand({ GroupName: `unmanaged-${s}`, Description: 'x', VpcId: a('aws_vpc.main', 'id') })) },
];
