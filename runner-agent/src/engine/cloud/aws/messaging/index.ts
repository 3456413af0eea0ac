// Messaging (issue 33): SQS queue policies, SNS topic policies and subscriptions.
import type { TypeReader } from '../reader.ts';
import { snsTopicPolicyReader, sqsQueuePolicyReader } from './policies.ts';
import { snsSubscriptionReader } from './subscription.ts';

export { MESSAGING_IGNORED, MESSAGING_RULES } from './table.ts';

export const MESSAGING_READERS: Record<string, TypeReader> = {
  aws_sqs_queue_policy: sqsQueuePolicyReader,
  aws_sns_topic_policy: snsTopicPolicyReader,
  aws_sns_topic_subscription: snsSubscriptionReader,
};
