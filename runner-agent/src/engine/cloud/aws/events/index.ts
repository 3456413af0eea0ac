// EventBridge (CloudWatch Events) rules and targets: readers, ignore lists and severity rules.
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { eventRuleReader, eventTargetReader } from './readers.ts';

export const EVENTS_READERS: Record<string, TypeReader> = {
  aws_cloudwatch_event_rule: eventRuleReader,
  aws_cloudwatch_event_target: eventTargetReader,
};

/** Inputs of the provider alone (name_prefix, force_destroy), the deprecated twin of `state`; a target's `arn` is where it delivers, so compared. */
export const EVENTS_IGNORED: Record<string, string[]> = {
  aws_cloudwatch_event_rule: ['name_prefix', 'force_destroy', 'is_enabled'],
  aws_cloudwatch_event_target: ['!arn'],
};

export const EVENTS_RULES: SeverityRule[] = [
  { id: 'events-target-redirected', severity: 'high', description: 'EventBridge target now delivers elsewhere, or with another role',
    rationale: 'Events reach another function, queue or account than the code declares, with the permissions of that role.',
    types: ['aws_cloudwatch_event_target'], attributes: ['arn', 'role_arn'] },
  { id: 'events-rule-disabled', severity: 'medium', description: 'EventBridge rule disabled',
    rationale: 'The automation or alerting the rule drives no longer runs.',
    types: ['aws_cloudwatch_event_rule'], attributes: ['state'], becomes: ['DISABLED'] },
];
