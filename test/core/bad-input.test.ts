// Bad input answers 400 in the error shape, never 500 (issue #10): NUL in any string, pages
// beyond the stated maximum, malformed multipart uploads, bodies nested too deep.
import t from 'tap';
import { connect, type AddressInfo } from 'node:net';
import { buildTestApp, register, bearer } from '../helper.ts';
import { MAX_BODY_DEPTH } from '../../core/input-rules.ts';

const isError400 = (res: { statusCode: number; json(): { success?: boolean; error?: { code?: string } } }) =>
  res.statusCode === 400 && res.json().success === false && typeof res.json().error?.code === 'string';

t.test('NUL, page numbers, multipart and depth are refused with 400', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  await ctx.tenancy.setPlan(s.orgId, 'enterprise');
  const h = bearer(s.token);

  const nulBodies: [string, string, unknown][] = [
    ['POST', '/api/workspaces', { name: 'a\u0000b' }],
    ['POST', '/api/repo-configs', { repositoryName: 'o/r', branch: 'ma\u0000in', provider: 'cloud_a' }],
    ['PUT', '/api/auth/preferences', { timezone: 'Europe/\u0000Paris' }],
    ['POST', '/api/auth/cloud-c-credentials', { projectId: 'p', serviceAccountKey: { 'k\u0000': 'v' } }],
  ];
  for (const [method, url, payload] of nulBodies) {
    const res = await app.inject({ method: method as 'POST', url, headers: h, payload: payload as object });
    t.ok(isError400(res), `${method} ${url}: NUL in the body is 400 (${res.statusCode})`);
  }
  for (const payload of [{ email: 'a\u0000@example.com', password: 'x' }, { email: 'x@example.com', password: 'correct horse battery', name: 'N\u0000' }]) {
    t.ok(isError400(await app.inject({ method: 'POST', url: '/api/auth/login', payload })), 'without login too');
    t.ok(isError400(await app.inject({ method: 'POST', url: '/api/auth/register', payload })), 'register too');
  }
  for (const url of ['/api/drifts/query?resourceType=a%00b', '/api/audit-logs?action=a%00b', '/api/drifts/query?q=%00']) {
    const res = await app.inject({ method: 'GET', url, headers: h });
    t.ok(isError400(res), `${url}: NUL in the query is 400 (${res.statusCode})`);
  }

  for (const page of ['Infinity', '9007199254740993', '1e300', '100001', '-1', '1.5']) {
    for (const url of ['/api/runners', '/api/drifts', '/api/scans', '/api/notifications', '/api/audit-logs', '/api/drifts/query']) {
      const res = await app.inject({ method: 'GET', url: `${url}?page=${page}`, headers: h });
      t.ok(isError400(res), `${url}?page=${page}: 400 (${res.statusCode})`);
    }
  }
  t.equal((await app.inject({ method: 'GET', url: '/api/runners?page=100000', headers: h })).statusCode, 200, 'the stated maximum page itself is fine');

  // A valid address longer than a file name may be (the local outbox names its files by recipient).
  const longEmail = `0@${'0'.repeat(63)}.${'a'.repeat(63)}.${'a'.repeat(63)}.${'a'.repeat(59)}`;
  const invite = await app.inject({ method: 'POST', url: `/api/orgs/${s.orgId}/invitations/email`, headers: h, payload: { email: longEmail, role: 'member' } });
  t.ok(invite.statusCode < 500, `an invitation to a 250-character address: ${invite.statusCode}`);

  const noBoundary = await app.inject({ method: 'POST', url: '/api/auth/avatar', headers: { ...h, 'content-type': 'multipart/form-data' }, payload: 'abc' });
  t.ok(isError400(noBoundary), `multipart without a boundary: 400 (${noBoundary.statusCode})`);
  const truncated = await app.inject({
    method: 'POST', url: '/api/auth/avatar', headers: { ...h, 'content-type': 'multipart/form-data; boundary=XX' },
    payload: '--XX\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
  });
  t.ok(isError400(truncated), `a truncated multipart body: 400 (${truncated.statusCode})`);

  // Written as text: JSON.stringify itself would overflow the stack on such an object.
  const deep = `${'{"a":'.repeat(10_000)}"x"${'}'.repeat(10_000)}`;
  const res = await app.inject({ method: 'POST', url: '/api/auth/cloud-c-credentials', headers: { ...h, 'content-type': 'application/json' }, payload: `{"projectId":"p","serviceAccountKey":${deep}}` });
  t.ok(isError400(res), `a 10,000-level object: 400 (${res.statusCode})`);
  let fine: unknown = 'x';
  for (let i = 0; i < MAX_BODY_DEPTH - 3; i++) fine = { a: fine };
  const ok = await app.inject({ method: 'POST', url: '/api/auth/cloud-c-credentials', headers: h, payload: { projectId: 'p', serviceAccountKey: { type: 'service_account', fine } } });
  t.equal(ok.statusCode, 200, `nesting within the bound is accepted (${ok.body.slice(0, 200)})`);
});

t.test("Fastify's and Node's own refusals use the error shape: 414, 431, 503 while closing", async (t) => {
  const { app } = await buildTestApp(t);
  const long = await app.inject({ method: 'GET', url: `/api/runners/${'a'.repeat(150)}` });
  t.equal(long.statusCode, 414);
  t.match(long.json(), { success: false, error: { code: 'uri_too_long' } }, '414 in the error shape');

  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const huge = await rawHttp(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  t.match(huge, /^HTTP\/1.1 431 /, '431 for headers over the limit');
  t.match(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4)), { success: false, error: { code: 'headers_too_large' } }, 'in the error shape');

  // A request whose body is still arriving keeps its connection open while the server starts
  // closing; the next request on that connection arrives during the drain.
  const body = '{"email":"a@example.com","password":"wrong1"}';
  const socket = connect(port, '127.0.0.1');
  let answers = '';
  socket.on('data', (d) => { answers += d.toString('latin1'); });
  const ended = new Promise((r) => socket.on('close', r));
  socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
  await new Promise((r) => setTimeout(r, 100));
  const closing = app.close();
  await new Promise((r) => setTimeout(r, 100));
  socket.write(`${body.slice(10)}GET /health HTTP/1.1\r\nHost: x\r\n\r\n`);
  await closing;
  await Promise.race([ended, new Promise((r) => setTimeout(r, 3000))]);
  socket.destroy();
  t.match(answers, /HTTP\/1.1 503 [\s\S]*"code":"shutting_down"/, 'a request arriving during shutdown: 503 in the error shape');
});

/** Sends raw bytes and returns what comes back until the server closes or `responses` answers arrived. */
function rawHttp(port: number, text: string, responses = 1): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if ((got.match(/HTTP\/1.1 \d{3}/g) ?? []).length >= responses && /\r\n\r\n[\s\S]*\}$/.test(got)) socket.end();
    });
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
    setTimeout(() => { socket.destroy(); resolve(got); }, 5000).unref();
  });
}
