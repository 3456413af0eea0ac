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

/**
 * The bus's contract: an event's data is of its name's schema (core/event-catalog.ts), so the
 * name is the discriminant; this guard lets the compiler see it.
 */
const carries = <K extends Source>(name: K, event: string, data: unknown): data is DomainEventData<K> => event === name;

/** The chat message of a webhook event, or null for an event chats do not get. */
export function chatMessage(event: string, data: unknown, frontendUrl: string, channel: string | null): ChatMessage | null {
  if (carries('scan.completed', event, data)) {
    const text = `Scan completed for ${data.repositoryName}: ${data.driftCount} open drifts (${data.newDrifts} new, ${data.resolvedDrifts} resolved)`;
    const fields = [`*Open drifts*\n${data.driftCount}`, `*New*\n${data.newDrifts}`, `*Resolved*\n${data.resolvedDrifts}`];
    return layout({ title: 'Scan completed', text, fields, repo: data.repositoryName, url: linkOf(frontendUrl, data.repositoryConfigId), causes: [], single: false }, channel);
  }
  const detected = carries('drift.detected', event, data);
  if (!detected && !carries('drift.resolved', event, data)) return null;
  const counts = severityCounts(data.drifts);
  let text = `${data.count} ${detected ? 'drifts detected' : 'drifts resolved'} in ${data.repositoryName} (${SEVERITIES.map((s) => `${counts[s]} ${s}`).join(', ')})`;
  const fields = SEVERITIES.map((s) => `*${s[0].toUpperCase()}${s.slice(1)}*\n${counts[s]}`);
  const single = data.drifts.length === 1;
  // drift.detected: who changed what, through which call (plugins/cloud-events), at most 5 lines.
  const causes = detected
    ? data.drifts.filter((x) => x.cause).slice(0, 5).map((x) => `\`${x.resourceAddress}\`: ${x.cause!.eventName} by ${x.cause!.actor ?? 'an unknown identity'} at ${x.cause!.eventTime}`)
    : [];
  if (causes.length) text += `; changed by ${causes.map((c) => c.replace(/`/g, '')).join('; ')}`;
  const url = single ? `${frontendUrl}/drifts/${data.drifts[0]._id}` : linkOf(frontendUrl, data.repositoryConfigId);
  return layout({ title: detected ? 'Drift detected' : 'Drift resolved', text, fields, repo: data.repositoryName, url, causes, single }, channel);
}

const linkOf = (frontendUrl: string, repositoryConfigId: string) => `${frontendUrl}/drifts?repositoryConfigId=${encodeURIComponent(repositoryConfigId)}`;

function layout(m: { title: string; text: string; fields: string[]; repo: string; url: string; causes: string[]; single: boolean }, channel: string | null): ChatMessage {
  return {
    text: m.text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${m.title}* in \`${m.repo}\`` } },
      { type: 'section', fields: m.fields.map((f) => ({ type: 'mrkdwn', text: f })) },
      ...(m.causes.length ? [{ type: 'section', text: { type: 'mrkdwn', text: `*Cause*\n${m.causes.join('\n')}` } }] : []),
      { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: m.single ? 'View drift' : 'View drifts' }, url: m.url }] },
    ],
    ...(channel ? { channel } : {}),
  };
}

export const testMessage = (orgName: string, channel: string | null): ChatMessage => ({
  text: `Test message from Drift for ${orgName}: chat notifications are set up.`,
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `*Drift* test message for *${orgName}*: chat notifications are set up.` } }],
  ...(channel ? { channel } : {}),
});
