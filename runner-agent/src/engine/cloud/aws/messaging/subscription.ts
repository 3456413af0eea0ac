// aws_sns_topic_subscription: one GetSubscriptionAttributes per subscription (SNS has no batch
// read). JSON-text attributes (filter, delivery and redrive policies) compare as documents.
import { GetSubscriptionAttributes$, GetSubscriptionAttributesCommand, type GetSubscriptionAttributesCommandOutput } from '@aws-sdk/client-sns';
import { mapLimit } from '../../../limit.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { attrsOf, FakeError, opt } from '../replay/kit.ts';

const arnOf = (a: Record<string, unknown>) => str(a.arn || a.id);
/** Attribute map values as SNS spells them (strings), empty ones left out. */
const wire = (m: Record<string, unknown>) => Object.fromEntries(Object.entries(m).filter(([, v]) => opt(v) !== undefined).map(([k, v]) => [k, String(v)]));

export const snsSubscriptionReader: TypeReader = {
  spec: { policies: ['filter_policy', 'delivery_policy', 'redrive_policy', 'replay_policy'] },
  answers: [answer<{ SubscriptionArn: string }>('sns', GetSubscriptionAttributes$, (input, world) => {
    const a = attrsOf(world, 'aws_sns_topic_subscription').find((x) => arnOf(x) === input.SubscriptionArn);
    if (!a) throw new FakeError('NotFound', 'Subscription does not exist', 404);
    return { Attributes: wire({
      SubscriptionArn: arnOf(a), TopicArn: a.topic_arn, Protocol: a.protocol, Endpoint: a.endpoint, RawMessageDelivery: a.raw_message_delivery ?? false,
      FilterPolicy: a.filter_policy, FilterPolicyScope: a.filter_policy_scope, DeliveryPolicy: a.delivery_policy, RedrivePolicy: a.redrive_policy,
      SubscriptionRoleArn: a.subscription_role_arn, ReplayPolicy: a.replay_policy, Owner: a.owner_id, PendingConfirmation: a.pending_confirmation ?? false,
      ConfirmationWasAuthenticated: a.confirmation_was_authenticated,
    }) };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const arn = arnOf(instance.attributes);
    const out = await unlessAbsent(ctx.send<GetSubscriptionAttributesCommandOutput>(ctx.sns(region), new GetSubscriptionAttributesCommand({ SubscriptionArn: arn }), 'sns:GetSubscriptionAttributes'), ['NotFound', 'NotFoundException']);
    if (!out) return null;
    const s = out.Attributes ?? {};
    const state = instance.attributes;
    return {
      arn, topic_arn: s.TopicArn, protocol: s.Protocol, endpoint: s.Endpoint, raw_message_delivery: s.RawMessageDelivery === 'true', filter_policy: s.FilterPolicy ?? '',
      // The scope is only stored once a filter policy is set (the API answers it then).
      filter_policy_scope: s.FilterPolicyScope ?? (state.filter_policy_scope === null || state.filter_policy_scope === undefined ? undefined : ''),
      delivery_policy: s.DeliveryPolicy ?? '', redrive_policy: s.RedrivePolicy ?? '', subscription_role_arn: s.SubscriptionRoleArn ?? '', replay_policy: s.ReplayPolicy ?? '',
      owner_id: s.Owner, pending_confirmation: s.PendingConfirmation === undefined ? undefined : s.PendingConfirmation === 'true',
    };
  }),
};
