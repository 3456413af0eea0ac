// Monitoring (issue 33): CloudWatch metric alarms.
import type { TypeReader } from '../reader.ts';
import { metricAlarmReader } from './alarm.ts';

export { MONITORING_IGNORED, MONITORING_RULES } from './table.ts';

export const MONITORING_READERS: Record<string, TypeReader> = { aws_cloudwatch_metric_alarm: metricAlarmReader };
