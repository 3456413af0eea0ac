// Severity rules of the operations types (rules.ts explains the conditions), tried before the
// generic labels-only, deleted and changed rules. Type-only imports: the rule table loads without
// the readers.
import type { SeverityRule } from '../../../rules.ts';

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

export const OPS_RULES: SeverityRule[] = [
  { id: 'gcp-function2-ingress-opened', severity: 'high', description: 'Cloud Function (2nd gen) ingress opened to all traffic',
    rationale: 'The function now accepts requests from the internet, not only from the networks or load balancer the code allows.',
    types: ['google_cloudfunctions2_function'], changeTypes: ['changed'], attributes: ['service_config.*.ingress_settings'], becomes: ['ALLOW_ALL'] },
  { id: 'gcp-function2-identity-changed', severity: 'high', description: 'Cloud Function (2nd gen) runs as, or is triggered as, another service account',
    rationale: 'The function (or its trigger) now holds the cloud permissions of an identity the code did not choose.',
    types: ['google_cloudfunctions2_function'], changeTypes: ['changed'],
    attributes: ['service_config.*.service_account_email', 'event_trigger.*.service_account_email', 'build_config.*.service_account'] },
  { id: 'gcp-alert-policy-disabled', severity: 'high', description: 'Alert policy disabled',
    rationale: 'The incidents this policy raises no longer fire: an outage or attack it watches for goes unnoticed.',
    types: ['google_monitoring_alert_policy'], changeTypes: ['changed'], attributes: ['enabled'], becomes: [false] },
  { id: 'gcp-alert-policy-channels-removed', severity: 'high', description: 'Alert policy lost notification channels',
    rationale: 'The people or systems the code routes these alerts to are no longer told.',
    types: ['google_monitoring_alert_policy'], changeTypes: ['changed'], attributes: ['notification_channels'],
    test: { describe: 'notification_channels no longer holds a channel it held', fn: (d) => strings(d.before).some((c) => !strings(d.after).includes(c)) } },
  // A channel's `labels` are where it notifies (an address, a webhook), not tags: the generic labels-only rule must not take them.
  { id: 'gcp-notification-channel-retargeted', severity: 'medium', description: 'Notification channel sends to another address or endpoint',
    rationale: 'Alerts routed through this channel now reach a destination the code does not name (or no longer reach the one it does).',
    types: ['google_monitoring_notification_channel'], changeTypes: ['changed'], attributes: ['labels', 'labels.*', 'type', 'enabled'] },
  { id: 'gcp-notification-channel-deleted', severity: 'medium', description: 'Notification channel deleted',
    rationale: 'Alert policies that notify through it stay silent for that channel; no access is opened.',
    types: ['google_monitoring_notification_channel'], changeTypes: ['deleted'] },
];
