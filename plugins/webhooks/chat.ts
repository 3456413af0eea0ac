// The message posted to a chat incoming webhook (Slack's format: `text` as the fallback and
// notification line, `blocks` for the layout; other Slack-compatible tools read the same).
import type { DomainEventData } from '../../core/event-catalog.ts';

export type ChatEvent = 'scan_completed' | 'drift_detected' | 'drift_resolved';
export const CHAT_EVENT_OF = { 'scan.completed': 'scan_completed', 'drift.detected': 'drift_detected', 'drift.resolved': 'drift_resolved' } as const;
type Source = keyof typeof CHAT_EVENT_OF;

const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;

function severityCounts(drifts: { severity: (typeof SEVERITIES)[number] }[]) {
  const counts = { critical: 0, high: 0, medium: 0, low: 0 };
  for (const d of drifts) counts[d.severity] += 1;
  return counts;
}

export interface ChatMessage { text: string; blocks: object[]; channel?: string }

export function chatMessage<K extends Source>(event: K, data: DomainEventData<K>, frontendUrl: string, channel: string | null): ChatMessage {
  const repo = data.repositoryName;
  const link = `${frontendUrl}/drifts?repositoryConfigId=${encodeURIComponent(data.repositoryConfigId)}`;
  let text: string;
  let title: string;
  let fields: string[];
  if (event === 'scan.completed') {
    const d = data as DomainEventData<'scan.completed'>;
    title = 'Scan completed';
    text = `Scan completed for ${repo}: ${d.driftCount} open drifts (${d.newDrifts} new, ${d.resolvedDrifts} resolved)`;
    fields = [`*Open drifts*\n${d.driftCount}`, `*New*\n${d.newDrifts}`, `*Resolved*\n${d.resolvedDrifts}`];
  } else {
    const d = data as DomainEventData<'drift.detected'> | DomainEventData<'drift.resolved'>;
    const counts = severityCounts(d.drifts);
    const detected = event === 'drift.detected';
    title = detected ? 'Drift detected' : 'Drift resolved';
    text = `${d.count} ${detected ? 'drifts detected' : 'drifts resolved'} in ${repo} (${SEVERITIES.map((s) => `${counts[s]} ${s}`).join(', ')})`;
    fields = SEVERITIES.map((s) => `*${s[0].toUpperCase()}${s.slice(1)}*\n${counts[s]}`);
  }
  const single = event !== 'scan.completed' ? (data as DomainEventData<'drift.detected'>).drifts : [];
  const url = single.length === 1 ? `${frontendUrl}/drifts/${single[0]._id}` : link;
  // drift.detected: who changed what, through which call (plugins/cloud-events), at most 5 lines.
  const causes = event === 'drift.detected'
    ? single.filter((x) => x.cause).slice(0, 5).map((x) => `\`${x.resourceAddress}\`: ${x.cause!.eventName} by ${x.cause!.actor ?? 'an unknown identity'} at ${x.cause!.eventTime}`)
    : [];
  if (causes.length) text += `; changed by ${causes.map((c) => c.replace(/`/g, '')).join('; ')}`;
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${title}* in \`${repo}\`` } },
      { type: 'section', fields: fields.map((f) => ({ type: 'mrkdwn', text: f })) },
      ...(causes.length ? [{ type: 'section', text: { type: 'mrkdwn', text: `*Cause*\n${causes.join('\n')}` } }] : []),
      { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: single.length === 1 ? 'View drift' : 'View drifts' }, url }] },
    ],
    ...(channel ? { channel } : {}),
  };
}

export const testMessage = (orgName: string, channel: string | null): ChatMessage => ({
  text: `Test message from Drift for ${orgName}: chat notifications are set up.`,
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `*Drift* test message for *${orgName}*: chat notifications are set up.` } }],
  ...(channel ? { channel } : {}),
});
