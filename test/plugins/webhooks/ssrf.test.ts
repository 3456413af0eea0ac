// The SSRF guard (issue 15 points 1 and 8): every notation of a non-public address is refused
// when a webhook or the chat URL is saved, a name resolving to loopback too, a name re-bound
// between the check and the connection is refused at connect time, and a redirect to loopback
// is never followed.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { createOutbound, isPublicAddress } from '../../../plugins/webhooks/outbound.ts';
import { receiver, receiverEnv, testCertificate } from './helper.ts';

const REFUSED = [
  'https://127.0.0.1/hook', 'https://127.1.2.3/', 'https://[::1]/hook', 'https://10.0.0.1/', 'https://10.255.255.254/',
  'https://172.16.0.1/', 'https://172.31.255.1/', 'https://192.168.1.1/', 'https://169.254.169.254/latest/meta-data/',
  'https://2130706433/', 'https://0x7f000001/', 'https://0177.0.0.1/', 'https://127.1/', 'https://[::ffff:127.0.0.1]/', 'https://[::ffff:7f00:1]/',
  'https://[::ffff:169.254.169.254]/', 'https://0.0.0.0/', 'https://[::]/', 'https://100.64.0.1/', 'https://[fd00::1]/', 'https://[fe80::1]/',
  'https://[fd00:ec2::254]/', 'https://224.0.0.1/', 'https://255.255.255.255/', 'https://localhost/hook', 'https://LOCALHOST./hook',
  // IPv6 forms that carry a private IPv4 address (issue 32 point 8): IPv4-compatible, NAT64 (well-known
  // and local-use prefixes), 6to4, Teredo, SIIT, and the other non-public IPv6 ranges.
  'https://[::127.0.0.1]/', 'https://[::7f00:1]/', 'https://[::10.0.0.1]/', 'https://[64:ff9b::7f00:1]/', 'https://[64:ff9b::127.0.0.1]/',
  'https://[64:ff9b:1::a00:1]/', 'https://[2002:7f00:1::]/', 'https://[2002:a9fe:a9fe::1]/', 'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
  'https://[::ffff:0:7f00:1]/', 'https://[fe80::1%25eth0]/', 'https://[fc00::1]/', 'https://[ff02::1]/', 'https://[2001:db8::1]/', 'https://[100::1]/',
];

t.test('isPublicAddress: only public unicast', async (t) => {
  for (const a of ['127.0.0.1', '::1', '10.1.1.1', '172.20.0.1', '192.168.0.1', '169.254.169.254', '100.100.100.200', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '0.0.0.0', '::',
    '::127.0.0.1', '::7f00:1', '64:ff9b::7f00:1', '64:ff9b:1::a9fe:a9fe', '2002:7f00:1::', '2002:c0a8:101::1', '2001:0:4136:e378:8000:63bf:80ff:fffe', 'fc00::1']) t.notOk(isPublicAddress(a), a);
  // NAT64 and 6to4 addresses of public IPv4 hosts stay reachable (an IPv6-only host with DNS64 gets these).
  for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) t.ok(isPublicAddress(a), a);
});

t.test('webhook and chat URLs refused whatever the notation (no allow-list)', async (t) => {
  const b = await buildTestApp(t, { env: { WEBHOOK_ALLOWED_HOSTS: '', WEBHOOK_WORKER: false } });
  const owner = await register(b.app);
  await b.ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  for (const url of REFUSED) {
    const res = await b.app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(owner.token), payload: { url, events: ['scan.completed'] } });
    t.equal(res.statusCode, 400, `webhook ${url}: 400`);
    t.match(res.json().error.message, /Refused/);
  }
  for (const url of ['https://127.0.0.1/services/T/B/X', 'https://[::1]/x', 'https://169.254.169.254/', 'https://2130706433/', 'https://[::127.0.0.1]/x', 'https://[64:ff9b::a9fe:a9fe]/x', 'https://[2002:7f00:1::]/x']) {
    const res = await b.app.inject({ method: 'PUT', url: '/api/auth/chat', headers: bearer(owner.token), payload: { webhookUrl: url } });
    t.equal(res.statusCode, 400, `chat ${url}: 400`);
  }
  const list = await b.app.inject({ method: 'GET', url: '/api/webhooks', headers: bearer(owner.token) });
  t.same(list.json().webhooks, [], 'nothing saved');
});

t.test('a name re-bound between the check and the connection is refused at connect time', async (t) => {
  const rx = await receiver(t);
  // The check's resolver says "public"; the connection's dns.lookup finds localhost = 127.0.0.1.
  const out = createOutbound({ WEBHOOK_ALLOWED_HOSTS: '', OUTBOUND_EXTRA_CA_FILE: testCertificate().certFile, WEBHOOK_TIMEOUT_MS: 2000 },
    { resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
  t.teardown(() => out.close());
  await t.resolves(out.check(`https://localhost:${rx.port}/hook`), 'the check before the request passes');
  await t.rejects(out.post(`https://localhost:${rx.port}/hook`, '{}', {}), /Refused: localhost resolves to 127\.0\.0\.1/, 'the connect-time lookup refuses it');
  t.equal(rx.received.length, 0, 'nothing reached the receiver');
});

t.test('a redirect to loopback is not followed', async (t) => {
  const b = await buildTestApp(t, { env: receiverEnv() });
  const owner = await register(b.app);
  await b.ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  const inside = await receiver(t);
  const redirecting = await receiver(t, { answer: () => ({ status: 302, headers: { location: `https://localhost:${inside.port}/admin` } }) });
  const id = (await b.app.inject({ method: 'POST', url: '/api/webhooks', headers: bearer(owner.token), payload: { url: redirecting.url, events: ['scan.failed'] } })).json()._id;
  const res = await b.app.inject({ method: 'POST', url: `/api/webhooks/${id}/test`, headers: bearer(owner.token) });
  t.match(res.json(), { success: false, statusCode: 302 });
  await b.ctx.bus.emit('scan.failed', owner.orgId, { scanId: 'a'.repeat(24), repositoryConfigId: 'b'.repeat(24), repositoryName: 'x/y', error: 'boom' });
  await b.services.webhooks!.runDue(new Date(Date.now() + 1000));
  const [d] = await b.ctx.db.db.collection('webhook_deliveries').find({ orgId: owner.orgId }).toArray();
  t.match(d, { status: 'pending', attempts: 1, lastStatusCode: 302 }, 'a 3xx is a failed attempt, retried later');
  t.equal(inside.received.length, 0, 'the redirect target was never called');
  t.equal(redirecting.received.length, 2);
});
