// The operations readers of issue 33 (Cloud Functions 2nd gen, TPU v2 VMs, Monitoring alert
// policies and notification channels, log-based metrics, Cloud Scheduler jobs, DNS record sets,
// private services connections) against the fake Google APIs: the written corpus state read back
// is no drift; each compared attribute changed live is a drift at its path with its rule; gone is
// deleted; a zone's record sets or a project's alert policies are one paged list.
import t from 'tap';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { OPS_READERS } from '../../../runner-agent/src/engine/cloud/google/ops/index.ts';
import { compareAgainst } from './harness.ts';
import { at, OPS, renamed, swap } from './google-lb-fixtures.ts';

const FN = 'google_cloudfunctions2_function.thumbnails';
const fn = at(OPS, FN).attributes as Record<string, any>;
const sc = fn.service_config[0];
const ALERT = 'google_monitoring_alert_policy.errors';
const alert = at(OPS, ALERT).attributes as Record<string, any>;

t.test('every operations type of the written state read back is no drift', async (t) => {
  const { drifts, compared, stats } = await compareAgainst('google', OPS);
  t.equal(compared, OPS.length);
  t.same(stats.unsupported, {});
  t.same(drifts, []);
  t.same(Object.keys(OPS_READERS).filter((x) => !OPS.some((i) => i.type === x)), [], 'every reader has an instance in the state');
});

t.test('a live change of each compared attribute is a drift at its path, with its rule', async (t) => {
  const job = at(OPS, 'google_cloud_scheduler_job.nightly').attributes as Record<string, any>;
  const rows: [string, StateInstance[], string, string, string][] = [
    ['function ingress opened', swap(OPS, FN, { service_config: [{ ...sc, ingress_settings: 'ALLOW_ALL' }] }), 'service_config.0.ingress_settings', 'gcp-function2-ingress-opened', 'high'],
    ['function ingress to internal and LB', swap(OPS, FN, { service_config: [{ ...sc, ingress_settings: 'ALLOW_INTERNAL_AND_GCLB' }] }), 'service_config.0.ingress_settings', 'changed', 'medium'],
    ['function runs as another account', swap(OPS, FN, { service_config: [{ ...sc, service_account_email: 'owner@acme-ops-prod.iam.gserviceaccount.com' }] }),
      'service_config.0.service_account_email', 'gcp-function2-identity-changed', 'high'],
    ['function triggered as another account', swap(OPS, FN, { event_trigger: [{ ...fn.event_trigger[0], service_account_email: 'x@acme-ops-prod.iam.gserviceaccount.com' }] }),
      'event_trigger.0.service_account_email', 'gcp-function2-identity-changed', 'high'],
    ['function environment', swap(OPS, FN, { service_config: [{ ...sc, environment_variables: { ...sc.environment_variables, OUT_BUCKET: 'mallory' } }] }),
      'service_config.0.environment_variables.OUT_BUCKET', 'changed', 'medium'],
    ['function scaling', swap(OPS, FN, { service_config: [{ ...sc, max_instance_count: 500 }] }), 'service_config.0.max_instance_count', 'changed', 'medium'],
    ['function VPC connector dropped', swap(OPS, FN, { service_config: [{ ...sc, vpc_connector: '' }] }), 'service_config.0.vpc_connector', 'changed', 'medium'],
    ['function runtime', swap(OPS, FN, { build_config: [{ ...fn.build_config[0], runtime: 'nodejs18' }] }), 'build_config.0.runtime', 'changed', 'medium'],
    ['function label', swap(OPS, FN, { effective_labels: { 'goog-terraform-provisioned': 'true', team: 'web' } }), 'labels.team', 'labels-only', 'low'],
    ['TPU runtime', swap(OPS, 'google_tpu_v2_vm.trainer', { runtime_version: 'tpu-vm-base' }), 'runtime_version', 'changed', 'medium'],
    ['TPU external IPs', swap(OPS, 'google_tpu_v2_vm.trainer', { network_config: [{ ...(at(OPS, 'google_tpu_v2_vm.trainer').attributes.network_config as any[])[0], enable_external_ips: true }] }),
      'network_config.0.enable_external_ips', 'changed', 'medium'],
    ['TPU label', swap(OPS, 'google_tpu_v2_vm.trainer', { effective_labels: { 'goog-terraform-provisioned': 'true', workload: 'eval' } }), 'labels.workload', 'labels-only', 'low'],
    ['alert policy disabled', swap(OPS, ALERT, { enabled: false }), 'enabled', 'gcp-alert-policy-disabled', 'high'],
    ['alert policy channels removed', swap(OPS, ALERT, { notification_channels: [] }), 'notification_channels', 'gcp-alert-policy-channels-removed', 'high'],
    ['alert policy channel added', swap(OPS, ALERT, { notification_channels: [...alert.notification_channels, 'projects/acme-ops-prod/notificationChannels/1'] }),
      'notification_channels', 'changed', 'medium'],
    ['alert threshold', swap(OPS, ALERT, { conditions: [{ ...alert.conditions[0], condition_threshold: [{ ...alert.conditions[0].condition_threshold[0], threshold_value: 500 }] }] }),
      'conditions.0.condition_threshold.0.threshold_value', 'changed', 'medium'],
    ['alert user label', swap(OPS, ALERT, { user_labels: { team: 'web' } }), 'user_labels.team', 'changed', 'medium'],
    ['channel address', swap(OPS, 'google_monitoring_notification_channel.oncall', { labels: { email_address: 'mallory@evil.example' } }),
      'labels.email_address', 'gcp-notification-channel-retargeted', 'medium'],
    ['channel disabled', swap(OPS, 'google_monitoring_notification_channel.oncall', { enabled: false }), 'enabled', 'gcp-notification-channel-retargeted', 'medium'],
    ['log metric filter', swap(OPS, 'google_logging_metric.errors', { filter: 'severity>=ERROR' }), 'filter', 'changed', 'medium'],
    ['log metric disabled', swap(OPS, 'google_logging_metric.errors', { disabled: true }), 'disabled', 'changed', 'medium'],
    ['scheduler schedule', swap(OPS, 'google_cloud_scheduler_job.nightly', { schedule: '0 3 * * *' }), 'schedule', 'changed', 'medium'],
    ['scheduler paused', swap(OPS, 'google_cloud_scheduler_job.nightly', { paused: true }), 'paused', 'changed', 'medium'],
    ['scheduler target', swap(OPS, 'google_cloud_scheduler_job.nightly', { http_target: [{ ...job.http_target[0], uri: 'https://evil.example/run' }] }), 'http_target.0.uri', 'changed', 'medium'],
    ['scheduler OIDC identity', swap(OPS, 'google_cloud_scheduler_job.nightly', { http_target: [{ ...job.http_target[0], oidc_token: [{ ...job.http_target[0].oidc_token[0], service_account_email: 'x@y' }] }] }),
      'http_target.0.oidc_token.0.service_account_email', 'changed', 'medium'],
    ['scheduler Pub/Sub data', swap(OPS, 'google_cloud_scheduler_job.ping', { pubsub_target: [{ attributes: { source: 'scheduler' }, data: 'cG9uZw==', topic_name: 'projects/acme-ops-prod/topics/ping' }] }),
      'pubsub_target.0.data', 'changed', 'medium'],
    ['DNS record data', swap(OPS, 'google_dns_record_set.www', { rrdatas: ['198.51.100.66'] }), 'rrdatas', 'changed', 'medium'],
    ['DNS record TTL', swap(OPS, 'google_dns_record_set.spf', { ttl: 60 }), 'ttl', 'changed', 'medium'],
    ['service connection ranges', swap(OPS, 'google_service_networking_connection.private', { reserved_peering_ranges: ['ops-google-managed', 'other'] }),
      'reserved_peering_ranges', 'changed', 'medium'],
  ];
  for (const [what, live, attribute, ruleId, severity] of rows) {
    const { drifts } = await compareAgainst('google', OPS, live);
    t.equal(drifts.length, 1, `${what}: one drift`);
    t.match(drifts[0], { changeType: 'changed', ruleId, severity }, what);
    t.same(drifts[0]?.diff.map((d) => d.attribute), attribute.split(','), `${what}: at ${attribute}`);
  }
});

t.test('what the platform adds is no drift: LOG_EXECUTION_ID, default build repository, masked channel credentials, an all-off TPU scheduling config', async (t) => {
  const bare = swap(OPS, FN, {
    service_config: [{ ...sc, environment_variables: { OUT_BUCKET: 'acme-ops-thumbs' } }],
    build_config: [{ ...fn.build_config[0], docker_repository: '' }],
  });
  t.same((await compareAgainst('google', bare, OPS)).drifts, [], 'LOG_EXECUTION_ID and gcf-artifacts answered, not in the state');
  // A Slack channel: the API answers its token label (masked); the provider keeps it in sensitive_labels.
  const slack = swap(OPS, 'google_monitoring_notification_channel.oncall', { type: 'slack', labels: { channel_name: '#oncall' } });
  const answered = swap(slack, 'google_monitoring_notification_channel.oncall', { labels: { channel_name: '#oncall', auth_token: '**************' } });
  t.same((await compareAgainst('google', slack, answered)).drifts, [], 'a masked credential label is no drift');
  // A TPU whose scheduling flags are all off: the API answers no schedulingConfig.
  const tpu = at(OPS, 'google_tpu_v2_vm.trainer');
  const off = swap(OPS, tpu.address, { scheduling_config: [{ preemptible: false, reserved: false, spot: false }] });
  t.same((await compareAgainst('google', off, swap(OPS, tpu.address, { scheduling_config: [] }))).drifts, [], 'all-off scheduling config left out by the API');
  const spotOff = await compareAgainst('google', OPS, swap(OPS, tpu.address, { scheduling_config: [] }));
  t.same(spotOff.drifts.map((d) => d.diff.map((x) => x.attribute)), [['scheduling_config']], 'a Spot TPU made standard is still a drift');
});

t.test('a resource gone is deleted; a deleted notification channel is medium', async (t) => {
  const gone = [FN, ALERT, 'google_dns_record_set.api', 'google_service_networking_connection.private', 'google_cloud_scheduler_job.ping', 'google_monitoring_notification_channel.oncall'];
  const { drifts } = await compareAgainst('google', OPS, OPS.filter((i) => !gone.includes(i.address)));
  t.same(drifts.map((d) => [d.resourceAddress, d.changeType]).sort(), gone.map((a) => [a, 'deleted']).sort());
  t.match(drifts.find((d) => d.resourceAddress === 'google_monitoring_notification_channel.oncall'), { ruleId: 'gcp-notification-channel-deleted', severity: 'medium' });
  t.match(drifts.find((d) => d.resourceAddress === ALERT), { ruleId: 'deleted', severity: 'high' });
});

t.test('several in one zone or project: one paged list; one GET below three; the project number read once', async (t) => {
  const alerts = ['a2', 'a3'].map((n, k) => renamed(at(OPS, ALERT), n, { name: `projects/acme-ops-prod/alertPolicies/${k}`, id: `projects/acme-ops-prod/alertPolicies/${k}` }));
  const conn = at(OPS, 'google_service_networking_connection.private');
  const conns = [conn, { ...conn, address: 'google_service_networking_connection.other', name: 'other', attributes: { ...conn.attributes, network: 'projects/acme-ops-prod/global/networks/ops2' } }];
  const state = [...OPS.filter((i) => i.type !== 'google_service_networking_connection'), ...alerts, ...conns];
  const { drifts, fake, api } = await compareAgainst('google', state, state, { pageSize: 2 });
  t.same(drifts, []);
  const calls = (re: RegExp) => fake.log.filter((l) => re.test(l)).length;
  t.equal(calls(/\/managedZones\/ops-acme-example\/rrsets(\?|$)/), 2, 'three record sets: one list, two pages of two');
  t.equal(calls(/\/rrsets\/[^?]/), 0, 'no record set read alone');
  t.equal(calls(/\/alertPolicies(\?|$)/), 2, 'three alert policies: one list, two pages');
  t.equal(calls(/\/jobs\/[^/?]+$/), 2, 'two scheduler jobs: one GET each');
  t.equal(calls(/cloudresourcemanager\/v1\/projects\/acme-ops-prod$/), 1, 'the project number read once for two connections');
  t.equal(calls(/servicenetworking\/v1\/services\/servicenetworking.googleapis.com\/connections/), 2, 'one connections call per network');
  t.equal(api.totalCalls, fake.log.length);
});
