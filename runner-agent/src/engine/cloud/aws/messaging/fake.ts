// Queues and topics the replay fake knows only from their policy resources (a state that holds
// aws_sqs_queue_policy but not the queue): queues-topics.ts answers for them too.
import { str, type FakeWorld } from '../reader.ts';
import { attrsOf } from '../replay/kit.ts';

/** A queue only its policy resource names, as the fake holds it (url, policy). */
export function policyQueue(world: FakeWorld, url: string): Record<string, unknown> | undefined {
  const a = attrsOf(world, 'aws_sqs_queue_policy').find((x) => str(x.queue_url || x.id) === url);
  return a && { id: url, url, policy: a.policy };
}
/** A topic only its policy resource names. */
export function policyTopic(world: FakeWorld, arn: string): Record<string, unknown> | undefined {
  const a = attrsOf(world, 'aws_sns_topic_policy').find((x) => str(x.arn || x.id) === arn);
  return a && { arn, id: arn, policy: a.policy, owner: a.owner };
}

