// Messaging: SQS queues and SNS topics, their standalone policy resources and SNS subscriptions (issue 33). Here: each type's reader, the attributes never reported as
// drift (computed, write-only or Terraform-side) and the family's severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { snsTopicPolicyReader, sqsQueuePolicyReader } from './policies.ts';
import { snsTopicReader, sqsQueueReader } from './queues-topics.ts';
import { snsSubscriptionReader } from './subscription.ts';
import { POLICY_RESOURCES_IGNORED, POLICY_RESOURCES_RULES } from './table.ts';

export const MESSAGING_READERS: Record<string, TypeReader> = {
  aws_sqs_queue: sqsQueueReader,
  aws_sns_topic: snsTopicReader,
  aws_sqs_queue_policy: sqsQueuePolicyReader,
  aws_sns_topic_policy: snsTopicPolicyReader,
  aws_sns_topic_subscription: snsSubscriptionReader,
};

export const MESSAGING_IGNORED: Record<string, string[]> = {
  aws_sns_topic: ['owner', 'name_prefix', 'beginning_archive_time'],
  aws_sqs_queue: ['url', 'name_prefix'],
  ...POLICY_RESOURCES_IGNORED,
};

/** First match wins across the whole table (rules.ts): a family's specific rules come before its broader ones. */
export const MESSAGING_RULES: SeverityRule[] = [
  { id: 'queue-topic-policy-public', severity: 'critical', description: 'SQS queue or SNS topic policy opened to everyone (Principal "*")',
    rationale: 'Anyone may now send to, read from or subscribe to it.',
    types: ['aws_sqs_queue', 'aws_sns_topic'], attributes: ['policy'], opensToAnyone: true },
  { id: 'queue-topic-policy-changed', severity: 'high', description: 'SQS queue or SNS topic policy changed',
    rationale: 'Who may use the queue or topic changed outside review.',
    types: ['aws_sqs_queue', 'aws_sns_topic'], attributes: ['policy'] },
  ...POLICY_RESOURCES_RULES,
];
