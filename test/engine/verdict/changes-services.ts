// The out-of-band changes terraform-verdict-services.test.ts makes with the SDK after applying
// services.tf: settings changed (the load balancer's too), tags and deletions, and a change
// Terraform does not report (a lifecycle policy no managed resource holds), which the engine
// must not report either.
import { PutRetentionPolicyCommand } from '@aws-sdk/client-cloudwatch-logs';
import { TagResourceCommand as TagTableCommand } from '@aws-sdk/client-dynamodb';
import { PutImageTagMutabilityCommand, PutLifecyclePolicyCommand } from '@aws-sdk/client-ecr';
import { ModifyListenerCommand, ModifyTargetGroupCommand } from '@aws-sdk/client-elastic-load-balancing-v2';
import { DeleteAliasCommand, DisableKeyCommand } from '@aws-sdk/client-kms';
import { ChangeResourceRecordSetsCommand } from '@aws-sdk/client-route-53';
import type { Change } from './changes.ts';

/** Out-of-band changes to managed resources, one line each; several on one address count once in the comparison. */
export const SERVICES_CHANGES: Change[] = [
  { address: 'aws_kms_key.app', what: 'disabled', run: (c, a) => c.kms.send(new DisableKeyCommand({ KeyId: a('aws_kms_key.app', 'key_id') })) },
  { address: 'aws_kms_alias.app', what: 'deleted', run: (c, a) => c.kms.send(new DeleteAliasCommand({ AliasName: a('aws_kms_alias.app', 'name') })) },
  { address: 'aws_cloudwatch_log_group.app', what: 'retention 14 -> 30 days', run: (c, a) => c.logs.send(new PutRetentionPolicyCommand({ logGroupName: a('aws_cloudwatch_log_group.app', 'name'), retentionInDays: 30 })) },
  { address: 'aws_dynamodb_table.items', what: 'tag added', run: (c, a) => c.dynamodb.send(new TagTableCommand({ ResourceArn: a('aws_dynamodb_table.items', 'arn'), Tags: [{ Key: 'Env', Value: 'prod' }] })) },
  { address: 'aws_ecr_repository.app', what: 'tags made immutable', run: (c, a) => c.ecr.send(new PutImageTagMutabilityCommand({ repositoryName: a('aws_ecr_repository.app', 'name'), imageTagMutability: 'IMMUTABLE' })) },
  { address: 'aws_lb_target_group.web', what: 'health check path edited', run: (c, a) => c.elb.send(new ModifyTargetGroupCommand({ TargetGroupArn: a('aws_lb_target_group.web', 'arn'), HealthCheckPath: '/health' })) },
  { address: 'aws_lb_listener.web', what: 'port 80 -> 8080', run: (c, a) => c.elb.send(new ModifyListenerCommand({ ListenerArn: a('aws_lb_listener.web', 'arn'), Port: 8080 })) },
  { address: 'aws_route53_record.www', what: 'A record pointed elsewhere', run: (c, a) => c.route53.send(new ChangeResourceRecordSetsCommand({ HostedZoneId: a('aws_route53_record.www', 'zone_id'), ChangeBatch: { Changes: [{ Action: 'UPSERT', ResourceRecordSet: { Name: a('aws_route53_record.www', 'name'), Type: 'A', TTL: 300, ResourceRecords: [{ Value: '10.40.1.99' }] } }] } })) },
];

/** Changes Terraform does not report: nothing the code manages holds them. */
export const SERVICES_SILENT: Change[] = [
  { address: '(ECR lifecycle policy)', what: 'a lifecycle policy on the managed repository (aws_ecr_lifecycle_policy is not declared)', run: (c, a) => c.ecr.send(new PutLifecyclePolicyCommand({ repositoryName: a('aws_ecr_repository.app', 'name'), lifecyclePolicyText: JSON.stringify({ rules: [{ rulePriority: 1, selection: { tagStatus: 'untagged', countType: 'sinceImagePushed', countUnit: 'days', countNumber: 7 }, action: { type: 'expire' } }] }) })) },
];
