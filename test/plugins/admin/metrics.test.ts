// GET /metrics (METRICS_TOKEN), request and store series, and the x-request-id header.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';

t.test('metrics: protected by METRICS_TOKEN, request and store series, request id header', async (t) => {
  const { app } = await buildTestApp(t, { env: { METRICS_TOKEN: 'metrics-token-0123456789' } });
  const user = await register(app);
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { ...bearer(user.token), 'x-request-id': 'trace-abc.123' } });
  t.equal(me.headers['x-request-id'], 'trace-abc.123', "the caller's request id is kept");
  const other = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { ...bearer(user.token), 'x-request-id': 'bad id with spaces' } });
  t.match(other.headers['x-request-id'], /^[0-9a-f-]{36}$/, 'an implausible one is replaced by a UUID');
  t.match((await app.inject({ method: 'GET', url: '/nowhere' })).headers['x-request-id'], /^[0-9a-f-]{36}$/, 'on a 404 too');

  t.equal((await app.inject({ method: 'GET', url: '/metrics' })).statusCode, 401, 'METRICS_TOKEN set: no token, 401');
  t.equal((await app.inject({ method: 'GET', url: '/metrics', headers: bearer('wrong-token-0123456789xx') })).statusCode, 401);
  const res = await app.inject({ method: 'GET', url: '/metrics', headers: bearer('metrics-token-0123456789') });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /text\/plain/);
  const text = res.body;
  t.match(text, /drift_http_requests_total\{route="getMe",method="GET",status="200"\} 3/, 'requests by route id and status (register() calls /me once)');
  t.match(text, /drift_http_request_duration_seconds_bucket\{le="0.005",route="getMe",method="GET",status="200"\}/, 'latency histogram');
  t.match(text, /drift_scans\{status="pending"\} 0/, 'scans by status (the scans plugin registers it)');
  t.match(text, /drift_runners\{status="online"\} 0/);
  t.match(text, /drift_webhook_outbox_pending 0/, 'outbox backlog (the webhooks plugin registers it)');
  t.match(text, /drift_store_ping_seconds\{store="database"\} \d/);
  t.match(text, /drift_store_ping_seconds\{store="redis"\} \d/);
  t.match(text, /drift_db_command_duration_seconds_count\{command="find"\} \d+/);
  t.match(text, /# TYPE drift_jobs_queue_depth gauge/);
});
