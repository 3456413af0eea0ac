// AI-provider settings and keys (issue 15 point 6) against loopback servers answering as
// OpenAI's chat-completions API (provider_a) and Anthropic's messages API (provider_b) are
// documented to: keys per organization, sealed, masked, never returned; a bad key is valid:false.
import t, { type Test } from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { buildTestApp, register, bearer } from '../../helper.ts';

const GOOD_A = 'sk-proj-good-0123456789abcdefghij';
const GOOD_B = 'sk-ant-api03-good-0123456789abcdef';

async function fakeProviders(t: Test) {
  const calls: { path: string; headers: IncomingMessage['headers']; body: any }[] = [];
  const json = (res: ServerResponse, status: number, body: object) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}');
      calls.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.url === '/a/v1/chat/completions') {
        if (req.headers.authorization !== `Bearer ${GOOD_A}`) {
          return json(res, 401, { error: { message: 'Incorrect API key provided: sk-bad***. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
        }
        return json(res, 200, { id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: `${body.model}-2024-07-18`, choices: [{ index: 0, message: { role: 'assistant', content: 'p' }, finish_reason: 'length' }], usage: { prompt_tokens: 8, completion_tokens: 1, total_tokens: 9 } });
      }
      if (req.url === '/b/v1/messages') {
        if (!req.headers['anthropic-version']) return json(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version header is required' } });
        if (req.headers['x-api-key'] !== GOOD_B) return json(res, 401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
        return json(res, 200, { id: 'msg_1', type: 'message', role: 'assistant', model: body.model, content: [{ type: 'text', text: 'p' }], stop_reason: 'max_tokens', stop_sequence: null, usage: { input_tokens: 8, output_tokens: 1 } });
      }
      json(res, 404, { error: { message: 'not found' } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { calls, env: { AI_PROVIDER_A_URL: `${base}/a`, AI_PROVIDER_B_URL: `${base}/b` } };
}

t.test('provider settings, keys and verify against both provider APIs', async (t) => {
  const fake = await fakeProviders(t);
  const b = await buildTestApp(t, { env: fake.env });
  const owner = await register(b.app);
  const other = await register(b.app);
  const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object, token = owner.token) =>
    b.app.inject({ method, url: `/api/auth${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

  t.same((await api('GET', '/ai-provider')).json(), { provider: 'provider_a', model: 'gpt-4o-mini', hasCustomKey: false }, 'defaults');
  t.equal((await api('PUT', '/ai-provider', { provider: 'provider_c' })).statusCode, 400, 'unknown provider: 400');
  t.same((await api('GET', '/provider-a-api-key')).json(), { hasKey: false, keyPrefix: null });
  t.match((await api('POST', '/provider-a-api-key/verify')).json(), { valid: false, error: /No API key/ }, 'verify without a key');

  const saved = await api('POST', '/provider-a-api-key', { apiKey: GOOD_A });
  t.same(saved.json(), { hasKey: true, keyPrefix: 'sk-proj...ghij' }, 'masked prefix');
  t.notOk((await api('GET', '/provider-a-api-key')).body.includes(GOOD_A), 'never returned');
  t.notOk(JSON.stringify(await b.ctx.db.db.collection('ai_provider_settings').findOne({ _id: owner.orgId as never })).includes('good-0123456789'), 'sealed at rest');
  t.same((await api('GET', '/ai-provider')).json(), { provider: 'provider_a', model: 'gpt-4o-mini', hasCustomKey: true });
  t.same((await api('GET', '/provider-a-api-key', undefined, other.token)).json(), { hasKey: false, keyPrefix: null }, "keys are per organization: another org's has none");

  const verified = await api('POST', '/provider-a-api-key/verify');
  t.same(verified.json(), { valid: true, model: 'gpt-4o-mini-2024-07-18' });
  const callA = fake.calls.at(-1)!;
  t.equal(callA.path, '/a/v1/chat/completions');
  t.match(callA.body, { model: 'gpt-4o-mini', max_tokens: 1, messages: [{ role: 'user' }] });

  await api('POST', '/provider-a-api-key', { apiKey: 'sk-bad-0123456789abcdefghij' });
  const bad = await api('POST', '/provider-a-api-key/verify');
  t.equal(bad.statusCode, 200, 'a bad key is not a 5xx');
  t.match(bad.json(), { valid: false, model: 'gpt-4o-mini', error: /refused the key: Incorrect API key/ });

  t.same((await api('PUT', '/ai-provider', { provider: 'provider_b', model: 'claude-sonnet-4-5' })).json(), { provider: 'provider_b', model: 'claude-sonnet-4-5', hasCustomKey: false });
  await api('POST', '/provider-b-api-key', { apiKey: 'sk-ant-wrong-000000000000000000' });
  t.match((await api('POST', '/provider-b-api-key/verify')).json(), { valid: false, error: /invalid x-api-key/ });
  await api('POST', '/provider-b-api-key', { apiKey: GOOD_B });
  t.same((await api('POST', '/provider-b-api-key/verify')).json(), { valid: true, model: 'claude-sonnet-4-5' });
  const callB = fake.calls.at(-1)!;
  t.equal(callB.path, '/b/v1/messages');
  t.equal(callB.headers['x-api-key'], GOOD_B);
  t.equal(callB.headers['anthropic-version'], '2023-06-01');

  const forFixes = await b.services['ai-providers']!.settingsFor(owner.orgId);
  t.same(forFixes, { provider: 'provider_b', model: 'claude-sonnet-4-5', apiKey: GOOD_B, baseUrl: fake.env.AI_PROVIDER_B_URL }, 'the service other plugins read');

  t.same((await api('DELETE', '/provider-b-api-key')).json(), { hasKey: false, keyPrefix: null });
  t.equal((await api('GET', '/ai-provider')).json().hasCustomKey, false);

  await b.ctx.audit.flush();
  const entries = await b.ctx.db.db.collection('audit_logs').find({ orgId: owner.orgId, action: 'ai_key.provider_a_saved' }).toArray();
  t.ok(entries.length >= 1);
  t.ok(entries.every((e) => e.body.apiKey === '[REDACTED]'), 'apiKey redacted in the audit trail');
});

t.test('the provider unreachable: valid false, not a 5xx', async (t) => {
  const b = await buildTestApp(t, { env: { AI_PROVIDER_A_URL: 'http://127.0.0.1:1' } });
  const owner = await register(b.app);
  await b.app.inject({ method: 'POST', url: '/api/auth/provider-a-api-key', headers: bearer(owner.token), payload: { apiKey: GOOD_A } });
  const res = await b.app.inject({ method: 'POST', url: '/api/auth/provider-a-api-key/verify', headers: bearer(owner.token) });
  t.equal(res.statusCode, 200);
  t.match(res.json(), { valid: false, error: /unreachable/ });
});
