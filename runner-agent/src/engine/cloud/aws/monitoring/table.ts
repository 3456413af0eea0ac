// CloudWatch alarms' ignore list and severity rules (data only; see iamextra/table.ts).
import type { SeverityRule } from '../../../rules.ts';
import { losesEntry } from '../list-rules.ts';

export const MONITORING_IGNORED: Record<string, string[]> = {};

const ACTIONS = ['alarm_actions', 'ok_actions', 'insufficient_data_actions'];

export const MONITORING_RULES: SeverityRule[] = [
  { id: 'alarm-actions-disabled', severity: 'high', description: 'CloudWatch alarm actions turned off',
    rationale: 'The alarm still changes state but nobody is paged and no automation runs.',
    types: ['aws_cloudwatch_metric_alarm'], attributes: ['actions_enabled'], becomes: [false] },
  { id: 'alarm-actions-removed', severity: 'high', description: 'CloudWatch alarm lost an action (alarm, OK or insufficient-data)',
    rationale: 'A notification or automation the code wires to the alarm no longer runs.',
    types: ['aws_cloudwatch_metric_alarm'], attributes: ACTIONS, test: { describe: 'lost an entry', fn: losesEntry } },
];
