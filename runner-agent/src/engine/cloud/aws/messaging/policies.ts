// aws_sqs_queue_policy and aws_sns_topic_policy: the policy attribute of the queue or topic, one
// GetQueueAttributes (Policy only) or GetTopicAttributes each. The replay fake answers those
// operations once for every reader that calls them (queues-topics.ts), from the queue or topic
// itself or from the policy resource that names it.
import { GetTopicAttributesCommand, type GetTopicAttributesCommandOutput } from '@aws-sdk/client-sns';
import { GetQueueAttributesCommand, type GetQueueAttributesCommandOutput } from '@aws-sdk/client-sqs';
import { mapLimit } from '../../../limit.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { str, unlessAbsent, type TypeReader } from '../reader.ts';
import { queueAnswers, topicAnswers } from './queues-topics.ts';

const QUEUE_GONE = ['QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue'];
const TOPIC_GONE = ['NotFound', 'NotFoundException'];

export const sqsQueuePolicyReader: TypeReader = {
  spec: { policies: ['policy'] },
  answers: queueAnswers,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const url = str(instance.attributes.queue_url || instance.attributes.id);
    const out = await unlessAbsent(ctx.send<GetQueueAttributesCommandOutput>(ctx.sqs(region), new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['Policy'] }), 'sqs:GetQueueAttributes'), QUEUE_GONE);
    // The provider drops the resource when the queue has no policy left.
    const policy = out?.Attributes?.Policy;
    return out && policy ? { queue_url: url, policy } : null;
  }),
};

export const snsTopicPolicyReader: TypeReader = {
  spec: { policies: ['policy'] },
  answers: topicAnswers,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const arn = str(instance.attributes.arn || instance.attributes.id);
    const out = await unlessAbsent(ctx.send<GetTopicAttributesCommandOutput>(ctx.sns(region), new GetTopicAttributesCommand({ TopicArn: arn }), 'sns:GetTopicAttributes'), TOPIC_GONE);
    if (!out) return null;
    return { arn, policy: out.Attributes?.Policy ?? '', owner: out.Attributes?.Owner };
  }),
};
