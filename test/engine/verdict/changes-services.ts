// The out-of-band changes terraform-verdict-services.test.ts makes with the SDK after applying
// services.tf: policy edits, tag edits, settings changed and deletions, and changes Terraform
// does not report (resources the code does not manage, settings no managed resource holds),
// which the engine must not report either.
import { PutRetentionPolicyCommand } from '@aws-sdk/client-cloudwatch-logs';
import { TagResourceCommand as TagTableCommand } from '@aws-sdk/client-dynamodb';
import { PutImageTagMutabilityCommand, PutLifecyclePolicyCommand } from '@aws-sdk/client-ecr';
import {
  CreatePolicyVersionCommand, DeleteGroupCommand, DetachRolePolicyCommand, DetachUserPolicyCommand, PutRolePolicyCommand,
  PutUserPolicyCommand, TagUserCommand, UpdateAccessKeyCommand, UpdateAssumeRolePolicyCommand,
} from '@aws-sdk/client-iam';
import { DeleteAliasCommand, DisableKeyCommand } from '@aws-sdk/client-kms';
import { ChangeResourceRecordSetsCommand } from '@aws-sdk/client-route-53';
import { PutBucketPolicyCommand, PutBucketTaggingCommand, PutBucketVersioningCommand, PutObjectCommand, PutPublicAccessBlockCommand } from '@aws-sdk/client-s3';
import { SetTopicAttributesCommand, SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, DeleteQueueCommand, SetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { doc, WIDE, type Change } from './changes.ts';

/** Out-of-band changes to managed resources, one line each; several on one address count once in the comparison. */
export const SERVICES_CHANGES: Change[] = [
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
  { address: 'aws_kms_key.app', what: 'disabled', run: (c, a) => c.kms.send(new DisableKeyCommand({ KeyId: a('aws_kms_key.app', 'key_id') })) },
  { address: 'aws_kms_alias.app', what: 'deleted', run: (c, a) => c.kms.send(new DeleteAliasCommand({ AliasName: a('aws_kms_alias.app', 'name') })) },
  { address: 'aws_sqs_queue.jobs', what: 'visibility timeout 60 -> 120 and a public policy', run: (c, a) => c.sqs.send(new SetQueueAttributesCommand({ QueueUrl: a('aws_sqs_queue.jobs', 'id'), Attributes: { VisibilityTimeout: '120', Policy: doc({ Effect: 'Allow', Principal: '*', Action: 'sqs:SendMessage', Resource: a('aws_sqs_queue.jobs', 'arn') }) } })) },
  { address: 'aws_sqs_queue.dead', what: 'deleted', run: (c, a) => c.sqs.send(new DeleteQueueCommand({ QueueUrl: a('aws_sqs_queue.dead', 'id') })) },
  { address: 'aws_sns_topic.alerts', what: 'display name set', run: (c, a) => c.sns.send(new SetTopicAttributesCommand({ TopicArn: a('aws_sns_topic.alerts', 'arn'), AttributeName: 'DisplayName', AttributeValue: 'edited' })) },
  { address: 'aws_cloudwatch_log_group.app', what: 'retention 14 -> 30 days', run: (c, a) => c.logs.send(new PutRetentionPolicyCommand({ logGroupName: a('aws_cloudwatch_log_group.app', 'name'), retentionInDays: 30 })) },
  { address: 'aws_dynamodb_table.items', what: 'tag added', run: (c, a) => c.dynamodb.send(new TagTableCommand({ ResourceArn: a('aws_dynamodb_table.items', 'arn'), Tags: [{ Key: 'Env', Value: 'prod' }] })) },
  { address: 'aws_ecr_repository.app', what: 'tags made immutable', run: (c, a) => c.ecr.send(new PutImageTagMutabilityCommand({ repositoryName: a('aws_ecr_repository.app', 'name'), imageTagMutability: 'IMMUTABLE' })) },
  { address: 'aws_route53_record.www', what: 'A record pointed elsewhere', run: (c, a) => c.route53.send(new ChangeResourceRecordSetsCommand({ HostedZoneId: a('aws_route53_record.www', 'zone_id'), ChangeBatch: { Changes: [{ Action: 'UPSERT', ResourceRecordSet: { Name: a('aws_route53_record.www', 'name'), Type: 'A', TTL: 300, ResourceRecords: [{ Value: '10.40.1.99' }] } }] } })) },
];

/** Changes Terraform does not report: nothing the code manages holds them. */
export const SERVICES_SILENT: Change[] = [
  { address: '(unmanaged queue)', what: 'a queue the code does not declare', run: (c, _a, s) => c.sqs.send(new CreateQueueCommand({ QueueName: `unmanaged-${s}` })) },
  { address: '(bucket object)', what: 'an object written into the managed bucket', run: (c, a) => c.s3.send(new PutObjectCommand({ Bucket: a('aws_s3_bucket.data', 'id'), Key: 'x.txt', Body: 'x' })) },
  { address: '(ECR lifecycle policy)', what: 'a lifecycle policy on the managed repository (aws_ecr_lifecycle_policy is not declared)', run: (c, a) => c.ecr.send(new PutLifecyclePolicyCommand({ repositoryName: a('aws_ecr_repository.app', 'name'), lifecyclePolicyText: JSON.stringify({ rules: [{ rulePriority: 1, selection: { tagStatus: 'untagged', countType: 'sinceImagePushed', countUnit: 'days', countNumber: 7 }, action: { type: 'expire' } }] }) })) },
  { address: '(topic subscription)', what: 'a subscription to the managed topic (aws_sns_topic_subscription is not declared)', run: (c, a) => c.sns.send(new SubscribeCommand({ TopicArn: a('aws_sns_topic.alerts', 'arn'), Protocol: 'sqs', Endpoint: a('aws_sqs_queue.jobs', 'arn') })) },
];
