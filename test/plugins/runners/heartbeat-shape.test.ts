// A heartbeat's systemInfo is informational: any object (within a size bound) keeps the runner
// alive; the known fields of the documented shape are kept, the rest ignored. A bad status is
// refused with a message naming the field and the values allowed.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';

t.test('heartbeat systemInfo of another shape, oversized systemInfo, bad status', async (t) => {
  const { app } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  const runner = (await app.inject({ method: 'POST', url: '/api/runners', headers: h, payload: { name: 'odd-agent' } })).json().data;
  const agent = { 'x-runner-token': runner.token };
  const beat = (payload: unknown) => app.inject({ method: 'POST', url: '/api/runners/heartbeat', headers: agent, payload: payload as object });

  const odd = await beat({ status: 'online', systemInfo: { cpu: 2, arch: 'arm64', memory: { totalBytes: 2048, vendor: 'x' }, os: 'linux' } });
  t.equal(odd.statusCode, 200, 'systemInfo {"cpu": 2} does not refuse the heartbeat');
  const seen = (await app.inject({ method: 'GET', url: `/api/runners/${runner._id}`, headers: h })).json().data;
  t.equal(seen.status, 'online', 'the runner came online');
  t.same(seen.systemInfo, { memory: { totalBytes: 2048 }, os: 'linux' }, 'known fields of the documented shape kept; cpu of another shape, unknown fields and sub-fields dropped');

  const big = await beat({ status: 'busy', systemInfo: { notes: 'x'.repeat(9000) } });
  t.equal(big.statusCode, 400, 'a systemInfo past the size bound is refused');
  t.equal(big.json().error.message, 'body/systemInfo must be at most 8192 bytes as JSON');

  const notObject = await beat({ status: 'online', systemInfo: 'fast' });
  t.equal(notObject.statusCode, 400, 'systemInfo must still be an object');
  t.equal(notObject.json().error.message, 'body/systemInfo must be object');

  const dancing = await beat({ status: 'dancing' });
  t.equal(dancing.statusCode, 400);
  t.equal(dancing.json().error.message, 'body/status must be one of: online, busy', 'the enum message names the field and the allowed values');
  t.same(dancing.json().error.details, [{ path: 'body/status', message: 'must be one of: online, busy', params: { allowedValues: ['online', 'busy'] } }]);

  const missing = await beat({});
  t.equal(missing.json().error.message, 'body/status is required', 'a missing field is named');
});
