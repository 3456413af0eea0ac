// aws_sqs_queue and aws_sns_topic: no batch reads exist; each costs its attributes read and its
// tags read (at most PER_RESOURCE_CONCURRENCY at once). Policies compare semantically.
import { GetTopicAttributes$, GetTopicAttributesCommand, ListTagsForResource$ as ListTopicTags$, ListTagsForResourceCommand as ListTopicTagsCommand, type GetTopicAttributesCommandOutput, type ListTagsForResourceCommandOutput as TopicTags } from '@aws-sdk/client-sns';
import { GetQueueAttributes$, GetQueueAttributesCommand, ListQueueTags$, ListQueueTagsCommand, type GetQueueAttributesCommandOutput, type ListQueueTagsCommandOutput } from '@aws-sdk/client-sqs';
import { mapLimit } from '../../../limit.ts';
import { isObject, tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, FakeError, opt, stateTags, tagList } from '../replay/kit.ts';
import { policyQueue, policyTopic } from './fake.ts';

const n = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const b = (v: string | undefined) => (v === undefined ? undefined : v === 'true');
/** Attribute map values as the API spells them (strings), empty ones left out. */
const wire = (m: Record<string, unknown>) => Object.fromEntries(Object.entries(m).filter(([, v]) => opt(v) !== undefined).map(([k, v]) => [k, String(v)]));

// ---- SQS ---------------------------------------------------------------------------------

const queueName = (url: string) => url.split('/').pop() ?? url;
function fakeQueue(world: FakeWorld, url: string): Record<string, unknown> {
  const q = attrsOf(world, 'aws_sqs_queue').find((x) => str(x.id || x.url) === url || str(x.name) === queueName(url));
  // A queue policy resource manages the policy: its text is what the queue holds.
  const p = policyQueue(world, url);
  const a = q && p ? { ...q, policy: p.policy } : q ?? p;
  if (!a) throw new FakeError('QueueDoesNotExist', 'The specified queue does not exist.', 400, 'AWS.SimpleQueueService.NonExistentQueue');
  return a;
}
const QUEUE_GONE = ['QueueDoesNotExist', 'AWS.SimpleQueueService.NonExistentQueue'];

/** The fake's SQS answers, shared with aws_sqs_queue_policy (messaging/). */
export const queueAnswers = [
    answer<{ QueueUrl: string }>('sqs', GetQueueAttributes$, (input, world) => {
      const a = fakeQueue(world, input.QueueUrl);
      return { Attributes: wire({
        VisibilityTimeout: a.visibility_timeout_seconds, MessageRetentionPeriod: a.message_retention_seconds, MaximumMessageSize: a.max_message_size,
        DelaySeconds: a.delay_seconds, ReceiveMessageWaitTimeSeconds: a.receive_wait_time_seconds, Policy: a.policy, RedrivePolicy: a.redrive_policy,
        RedriveAllowPolicy: a.redrive_allow_policy, KmsMasterKeyId: a.kms_master_key_id, KmsDataKeyReusePeriodSeconds: a.kms_data_key_reuse_period_seconds,
        SqsManagedSseEnabled: a.sqs_managed_sse_enabled, FifoQueue: a.fifo_queue === true ? true : undefined, ContentBasedDeduplication: a.fifo_queue === true ? a.content_based_deduplication : undefined,
        DeduplicationScope: a.deduplication_scope, FifoThroughputLimit: a.fifo_throughput_limit, QueueArn: a.arn,
      }) };
    }),
    answer<{ QueueUrl: string }>('sqs', ListQueueTags$, (input, world) => {
      const tags = stateTags(fakeQueue(world, input.QueueUrl));
      return { Tags: isObject(tags) && Object.keys(tags).length ? Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, String(v)])) : undefined };
    }),
];

export const sqsQueueReader: TypeReader = {
  spec: { policies: ['policy', 'redrive_policy', 'redrive_allow_policy'] },
  answers: queueAnswers,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const url = str(instance.attributes.id || instance.attributes.url);
    const sqs = ctx.sqs(region);
    const out = await unlessAbsent(ctx.send<GetQueueAttributesCommandOutput>(sqs, new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }), 'sqs:GetQueueAttributes'), QUEUE_GONE);
    if (!out) return null;
    const tags = (await unlessAbsent(ctx.send<ListQueueTagsCommandOutput>(sqs, new ListQueueTagsCommand({ QueueUrl: url }), 'sqs:ListQueueTags'), QUEUE_GONE))?.Tags ?? {};
    const q = out.Attributes ?? {};
    return {
      name: queueName(url), arn: q.QueueArn, fifo_queue: q.FifoQueue === 'true', visibility_timeout_seconds: n(q.VisibilityTimeout),
      message_retention_seconds: n(q.MessageRetentionPeriod), max_message_size: n(q.MaximumMessageSize), delay_seconds: n(q.DelaySeconds),
      receive_wait_time_seconds: n(q.ReceiveMessageWaitTimeSeconds), policy: q.Policy ?? '', redrive_policy: q.RedrivePolicy ?? '', redrive_allow_policy: q.RedriveAllowPolicy ?? '',
      kms_master_key_id: q.KmsMasterKeyId ?? '', kms_data_key_reuse_period_seconds: n(q.KmsDataKeyReusePeriodSeconds), sqs_managed_sse_enabled: b(q.SqsManagedSseEnabled),
      content_based_deduplication: q.ContentBasedDeduplication === 'true', deduplication_scope: q.DeduplicationScope ?? '', fifo_throughput_limit: q.FifoThroughputLimit ?? '',
      tags, tags_all: tags,
    };
  }),
};

// ---- SNS ---------------------------------------------------------------------------------

function fakeTopic(world: FakeWorld, arn: string): Record<string, unknown> {
  const t = attrsOf(world, 'aws_sns_topic').find((x) => str(x.arn || x.id) === arn);
  const p = policyTopic(world, arn);
  const a = t && p ? { ...t, policy: p.policy } : t ?? p;
  if (!a) throw new FakeError('NotFound', 'Topic does not exist', 404);
  return a;
}

/** The fake's SNS topic answers, shared with aws_sns_topic_policy (messaging/). */
export const topicAnswers = [
    answer<{ TopicArn: string }>('sns', GetTopicAttributes$, (input, world) => {
      const a = fakeTopic(world, input.TopicArn);
      return { Attributes: wire({
        TopicArn: input.TopicArn, DisplayName: a.display_name, Policy: a.policy, DeliveryPolicy: a.delivery_policy, KmsMasterKeyId: a.kms_master_key_id,
        FifoTopic: a.fifo_topic === true ? true : undefined, ContentBasedDeduplication: a.fifo_topic === true ? a.content_based_deduplication : undefined,
        SignatureVersion: a.signature_version, TracingConfig: a.tracing_config, Owner: a.owner,
      }) };
    }),
    answer<{ ResourceArn: string }>('sns', ListTopicTags$, (input, world) => ({ Tags: tagList(stateTags(fakeTopic(world, input.ResourceArn))) })),
];

export const snsTopicReader: TypeReader = {
  spec: { policies: ['policy', 'delivery_policy'] },
  answers: topicAnswers,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const arn = str(instance.attributes.arn || instance.attributes.id);
    const sns = ctx.sns(region);
    const out = await unlessAbsent(ctx.send<GetTopicAttributesCommandOutput>(sns, new GetTopicAttributesCommand({ TopicArn: arn }), 'sns:GetTopicAttributes'), ['NotFound', 'NotFoundException']);
    if (!out) return null;
    const tags = tagMap((await unlessAbsent(ctx.send<TopicTags>(sns, new ListTopicTagsCommand({ ResourceArn: arn }), 'sns:ListTagsForResource'), ['NotFound', 'ResourceNotFound', 'ResourceNotFoundException']))?.Tags);
    const t = out.Attributes ?? {};
    return {
      name: arn.split(':').pop(), arn, display_name: t.DisplayName ?? '', policy: t.Policy ?? '', delivery_policy: t.DeliveryPolicy ?? '',
      kms_master_key_id: t.KmsMasterKeyId ?? '', fifo_topic: t.FifoTopic === 'true', content_based_deduplication: t.ContentBasedDeduplication === 'true',
      signature_version: n(t.SignatureVersion), tracing_config: t.TracingConfig ?? '', owner: t.Owner, tags, tags_all: tags,
    };
  }),
};
