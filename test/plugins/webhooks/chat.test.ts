// Chat notifications (issue 15 point 4) against a Slack-style incoming webhook on loopback:
// settings masked on read, events from the chat list, messages (text and blocks) through the
// same outbox and retries, the test route; and the audit trail's redaction (point 7).
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { receiver, receiverEnv } from './helper.ts';

t.test('chat settings, messages through the outbox, test route, redacted audit bodies', async (t) => {
  const b = await buildTestApp(t, { env: receiverEnv() });
  const owner = await register(b.app);
  const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    b.app.inject({ method, url, headers: bearer(owner.token), ...(payload ? { payload } : {}) });
  // Slack answers a good post with 200 "ok"; the first message here fails once (Slack's 500 "rollup_error").
  const slack = await receiver(t, { answer: (n) => (n === 1 ? { status: 500, body: 'rollup_error' } : { status: 200, body: 'ok' }) });
  const url = `${slack.url}/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX`;

  t.same((await api('GET', '/api/auth/chat')).json(), { enabled: false, webhookUrl: null, channel: null, events: [] }, 'nothing set');
  t.equal((await api('PUT', '/api/auth/chat', { webhookUrl: url.replace('https', 'http') })).statusCode, 400, 'http: 400');
  t.equal((await api('PUT', '/api/auth/chat', { webhookUrl: url, events: ['scan_started'] })).statusCode, 400, 'an event outside the chat list: 400');
  const put = await api('PUT', '/api/auth/chat', { webhookUrl: url, channel: '#drift', events: ['drift_detected', 'drift_resolved'] });
  t.equal(put.statusCode, 200);
  t.match(put.json(), { enabled: true, channel: '#drift', events: ['drift_detected', 'drift_resolved'] });
  t.notOk(put.json().webhookUrl.includes('XXXXXXXXXXXXXXXXXXXXXXXX'), 'the URL is masked on read');
  t.notOk((await api('GET', '/api/auth/chat')).body.includes('XXXXXXXXXXXXXXXXXXXXXXXX'), 'and on GET');
  t.notOk(JSON.stringify(await b.ctx.db.db.collection('chat_settings').findOne({ _id: owner.orgId as never })).includes('XXXXXXXX'), 'stored encrypted');

  const base = { scanId: 'a'.repeat(24), repositoryConfigId: 'b'.repeat(24), repositoryName: 'acme/infra' };
  await b.ctx.bus.emit('scan.completed', owner.orgId, { ...base, driftCount: 1, newDrifts: 1, resolvedDrifts: 0 });
  await b.ctx.bus.emit('drift.detected', owner.orgId, { ...base, count: 3, drifts: [
    { _id: 'c'.repeat(24), resourceAddress: 'aws_s3_bucket.a', severity: 'critical' },
    { _id: 'd'.repeat(24), resourceAddress: 'aws_s3_bucket.b', severity: 'high' },
    { _id: 'e'.repeat(24), resourceAddress: 'aws_s3_bucket.c', severity: 'high' },
  ] });
  const t0 = Date.now() + 1000;
  await b.services.webhooks!.runDue(new Date(t0));
  t.equal(slack.received.length, 1, 'scan_completed is not subscribed: one message, which failed');
  await b.services.webhooks!.runDue(new Date(t0 + 60_000));
  t.equal(slack.received.length, 2, 'retried after a minute');
  const msg = JSON.parse(slack.received[1].body);
  t.match(msg, { text: /3 drifts detected in acme\/infra \(1 critical, 2 high, 0 medium, 0 low\)/, channel: '#drift' });
  t.match(msg.blocks[0], { type: 'section', text: { type: 'mrkdwn', text: /Drift detected.*acme\/infra/ } });
  t.same(msg.blocks[1].fields.map((f: { text: string }) => f.text), ['*Critical*\n1', '*High*\n2', '*Medium*\n0', '*Low*\n0'], 'severity counts');
  t.match(msg.blocks[2].elements[0], { type: 'button', url: /\/drifts\?repositoryConfigId=b{24}$/ }, 'a link to the drifts');
  t.equal(slack.received[1].headers['x-service-signature'], undefined, 'chat posts carry no webhook signature');

  const test = await api('POST', '/api/auth/chat/test');
  t.match(test.json(), { success: true, statusCode: 200 });
  t.match(JSON.parse(slack.received[2].body), { text: /Test message/, blocks: Array, channel: '#drift' });

  await b.ctx.audit.flush();
  const entries = await b.ctx.db.db.collection('audit_logs').find({ orgId: owner.orgId, action: 'chat.updated' }).toArray();
  t.ok(entries.length >= 1);
  t.equal(entries.at(-1)!.body.webhookUrl, '[REDACTED]', 'webhookUrl redacted in the audit trail');

  t.equal((await api('DELETE', '/api/auth/chat')).statusCode, 200);
  t.equal((await api('POST', '/api/auth/chat/test')).statusCode, 404, 'test without settings: 404');
});

t.test('webhook secrets are redacted in the audit trail', async (t) => {
  const b = await buildTestApp(t, { env: receiverEnv() });
  const owner = await register(b.app);
  await b.ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  const rx = await receiver(t);
  await b.app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(owner.token), payload: { url: rx.url, events: ['scan.completed'], secret: 'super-secret-value' } });
  await b.ctx.audit.flush();
  const [entry] = await b.ctx.db.db.collection('audit_logs').find({ orgId: owner.orgId, action: 'webhook.created' }).toArray();
  t.equal(entry.body.secret, '[REDACTED]');
  t.equal(entry.body.url, rx.url, 'the URL itself is not a secret');
});
