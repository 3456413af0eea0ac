// The out-of-band changes terraform-verdict-workload.test.ts makes with the SDK after applying
// workload.tf: attribute changes, rules opened and revoked, a route deleted, policies widened,
// tags and deletions, and changes Terraform does not report (a group and a queue the code does
// not declare, an object in the managed bucket, a subscription to the managed topic), which the
// engine must not report either.
import { UpdateAutoScalingGroupCommand } from '@aws-sdk/client-auto-scaling';
import {
  AuthorizeSecurityGroupIngressCommand, CreateSecurityGroupCommand, DeleteKeyPairCommand, DeleteRouteCommand, ModifyInstanceAttributeCommand,
  ModifyNetworkInterfaceAttributeCommand, ModifySubnetAttributeCommand, ModifyVolumeCommand, RevokeSecurityGroupEgressCommand, RevokeSecurityGroupIngressCommand,
} from '@aws-sdk/client-ec2';
import { TagResourceCommand as TagEcsCommand, UpdateServiceCommand } from '@aws-sdk/client-ecs';
import {
  CreatePolicyVersionCommand, DeleteGroupCommand, DetachRolePolicyCommand, DetachUserPolicyCommand, PutRolePolicyCommand,
  PutUserPolicyCommand, TagUserCommand, UpdateAccessKeyCommand, UpdateAssumeRolePolicyCommand,
} from '@aws-sdk/client-iam';
import { ModifyDBSubnetGroupCommand } from '@aws-sdk/client-rds';
import { PutBucketPolicyCommand, PutBucketTaggingCommand, PutBucketVersioningCommand, PutObjectCommand, PutPublicAccessBlockCommand } from '@aws-sdk/client-s3';
import { SetTopicAttributesCommand, SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, DeleteQueueCommand, SetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { doc, tag, WIDE, type Change } from './changes.ts';

/** Out-of-band changes to managed resources, one line each; several on one address count once in the comparison. */
export const WORKLOAD_CHANGES: Change[] = [
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
  { address: 'aws_s3_bucket.data', what: 'tag Env edited', run: (c, a) => c.s3.send(new PutBucketTaggingCommand({ Bucket: a('aws_s3_bucket.data', 'id'), Tagging: { TagSet: [{ Key: 'Env', Value: 'prod' }] } })) },
  { address: 'aws_s3_bucket_versioning.data', what: 'versioning suspended', run: (c, a) => c.s3.send(new PutBucketVersioningCommand({ Bucket: a('aws_s3_bucket.data', 'id'), VersioningConfiguration: { Status: 'Suspended' } })) },
  { address: 'aws_s3_bucket_public_access_block.data', what: 'block_public_policy turned off', run: (c, a) => c.s3.send(new PutPublicAccessBlockCommand({ Bucket: a('aws_s3_bucket.data', 'id'), PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: false, IgnorePublicAcls: true, RestrictPublicBuckets: true } })) },
  { address: 'aws_s3_bucket_policy.data', what: 'policy opened to Principal "*"', run: (c, a) => c.s3.send(new PutBucketPolicyCommand({ Bucket: a('aws_s3_bucket.data', 'id'), Policy: doc({ Sid: 'Open', Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: [`arn:aws:s3:::${a('aws_s3_bucket.data', 'id')}/*`] }) })) },
  { address: 'aws_iam_role.app', what: 'trust widened to lambda', run: (c, a) => c.iam.send(new UpdateAssumeRolePolicyCommand({ RoleName: a('aws_iam_role.app', 'name'), PolicyDocument: doc({ Effect: 'Allow', Principal: { Service: ['ec2.amazonaws.com', 'lambda.amazonaws.com'] }, Action: 'sts:AssumeRole' }) })) },
  { address: 'aws_iam_policy.app', what: 'new default version with s3:*', run: (c, a) => c.iam.send(new CreatePolicyVersionCommand({ PolicyArn: a('aws_iam_policy.app', 'arn'), PolicyDocument: WIDE, SetAsDefault: true })) },
  { address: 'aws_iam_role_policy.inline', what: 'inline policy widened', run: (c, a) => c.iam.send(new PutRolePolicyCommand({ RoleName: a('aws_iam_role.app', 'name'), PolicyName: 'inline', PolicyDocument: WIDE })) },
  { address: 'aws_iam_role_policy_attachment.app', what: 'detached', run: (c, a) => c.iam.send(new DetachRolePolicyCommand({ RoleName: a('aws_iam_role.app', 'name'), PolicyArn: a('aws_iam_policy.app', 'arn') })) },
  { address: 'aws_iam_user.ci', what: 'tag Team edited', run: (c, a) => c.iam.send(new TagUserCommand({ UserName: a('aws_iam_user.ci', 'name'), Tags: [{ Key: 'Team', Value: 'other' }] })) },
  { address: 'aws_iam_group.devs', what: 'deleted', run: (c, a) => c.iam.send(new DeleteGroupCommand({ GroupName: a('aws_iam_group.devs', 'name') })) },
  { address: 'aws_iam_user_policy.ci', what: 'user policy widened', run: (c, a) => c.iam.send(new PutUserPolicyCommand({ UserName: a('aws_iam_user.ci', 'name'), PolicyName: 'ci', PolicyDocument: WIDE })) },
  { address: 'aws_iam_user_policy_attachment.ci', what: 'detached', run: (c, a) => c.iam.send(new DetachUserPolicyCommand({ UserName: a('aws_iam_user.ci', 'name'), PolicyArn: a('aws_iam_policy.app', 'arn') })) },
  { address: 'aws_iam_access_key.ci', what: 'made inactive', run: (c, a) => c.iam.send(new UpdateAccessKeyCommand({ UserName: a('aws_iam_user.ci', 'name'), AccessKeyId: a('aws_iam_access_key.ci', 'id'), Status: 'Inactive' })) },
  { address: 'aws_sqs_queue.jobs', what: 'visibility timeout 60 -> 120 and a public policy', run: (c, a) => c.sqs.send(new SetQueueAttributesCommand({ QueueUrl: a('aws_sqs_queue.jobs', 'id'), Attributes: { VisibilityTimeout: '120', Policy: doc({ Effect: 'Allow', Principal: '*', Action: 'sqs:SendMessage', Resource: a('aws_sqs_queue.jobs', 'arn') }) } })) },
  { address: 'aws_sqs_queue.dead', what: 'deleted', run: (c, a) => c.sqs.send(new DeleteQueueCommand({ QueueUrl: a('aws_sqs_queue.dead', 'id') })) },
  { address: 'aws_sns_topic.alerts', what: 'display name set', run: (c, a) => c.sns.send(new SetTopicAttributesCommand({ TopicArn: a('aws_sns_topic.alerts', 'arn'), AttributeName: 'DisplayName', AttributeValue: 'edited' })) },
];

/** Changes Terraform does not report: nothing the code manages holds them. */
export const WORKLOAD_SILENT: Change[] = [
  { address: '(unmanaged group)', what: 'a security group the code does not declare, in its VPC', run: (c, a, s) => c.ec2.send(new CreateSecurityGroupCommand({ GroupName: `unmanaged-${s}`, Description: 'x', VpcId: a('aws_vpc.main', 'id') })) },
  { address: '(bucket object)', what: 'an object written into the managed bucket', run: (c, a) => c.s3.send(new PutObjectCommand({ Bucket: a('aws_s3_bucket.data', 'id'), Key: 'x.txt', Body: 'x' })) },
  { address: '(unmanaged queue)', what: 'a queue the code does not declare', run: (c, _a, s) => c.sqs.send(new CreateQueueCommand({ QueueName: `unmanaged-${s}` })) },
  { address: '(topic subscription)', what: 'a subscription to the managed topic (aws_sns_topic_subscription is not declared)', run: (c, a) => c.sns.send(new SubscribeCommand({ TopicArn: a('aws_sns_topic.alerts', 'arn'), Protocol: 'sqs', Endpoint: a('aws_sqs_queue.jobs', 'arn') })) },
];
