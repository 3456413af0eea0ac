// The operations and platform readers of issue 33: Cloud Functions (2nd gen), Cloud TPU VMs,
// Cloud Monitoring alert policies and notification channels, log-based metrics, Cloud Scheduler
// jobs, Cloud DNS record sets and private services connections. Spread into GOOGLE_READERS,
// IGNORED_ATTRIBUTES and GOOGLE_RULES with one line each.
import type { RestReader } from '../../rest/reader.ts';
import { alertPolicyReader, loggingMetricReader, notificationChannelReader, schedulerJobReader } from './monitoring.ts';
import { dnsRecordSetReader, serviceNetworkingConnectionReader } from './network.ts';
import { cloudFunction2Reader, tpuV2VmReader } from './runtime.ts';

export { OPS_IGNORED } from './ignored.ts';
export { OPS_RULES } from './rules.ts';

export const OPS_READERS: Record<string, RestReader> = {
  google_cloudfunctions2_function: cloudFunction2Reader,
  google_tpu_v2_vm: tpuV2VmReader,
  google_monitoring_alert_policy: alertPolicyReader,
  google_monitoring_notification_channel: notificationChannelReader,
  google_logging_metric: loggingMetricReader,
  google_cloud_scheduler_job: schedulerJobReader,
  google_dns_record_set: dnsRecordSetReader,
  google_service_networking_connection: serviceNetworkingConnectionReader,
};
