// Messaging's ignore list and severity rules (data only; see iamextra/table.ts). The policy rules
// have the shape of the aws_sqs_queue / aws_sns_topic ones in rules.ts, for the policy resources.
import type { SeverityRule } from '../../../rules.ts';

export const POLICY_RESOURCES_IGNORED: Record<string, string[]> = {
  // Settings of the subscribe call itself, and state the API computes.
  aws_sns_topic_subscription: ['confirmation_timeout_in_minutes', 'endpoint_auto_confirms', 'confirmation_was_authenticated', 'pending_confirmation', 'owner_id'],
  aws_sns_topic_policy: ['owner'],
};

const POLICY_TYPES = ['aws_sqs_queue_policy', 'aws_sns_topic_policy'];

export const POLICY_RESOURCES_RULES: SeverityRule[] = [
  { id: 'queue-topic-policy-resource-public', severity: 'critical', description: 'SQS queue or SNS topic policy opened to everyone (Principal "*")',
    rationale: 'Anyone may now send to, read from or subscribe to it.',
    types: POLICY_TYPES, attributes: ['policy'], opensToAnyone: true },
  { id: 'queue-topic-policy-resource-changed', severity: 'high', description: 'SQS queue or SNS topic policy changed',
    rationale: 'Who may use the queue or topic changed outside review.',
    types: POLICY_TYPES, attributes: ['policy'] },
  { id: 'subscription-endpoint-changed', severity: 'high', description: 'SNS subscription delivers to another endpoint or protocol',
    rationale: 'Messages of the topic now reach a destination nobody reviewed.',
    types: ['aws_sns_topic_subscription'], changeTypes: ['changed'], attributes: ['endpoint', 'protocol', 'topic_arn'] },
];
