// Loopback receivers for the webhook tests: an HTTPS server with a certificate generated here
// (openssl), trusted by the app through OUTBOUND_EXTRA_CA_FILE, that answers as a webhook
// receiver or a Slack incoming webhook does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { Test } from 'tap';

let cached: { key: string; cert: string; certFile: string } | undefined;
/** A self-signed certificate for 127.0.0.1 and localhost, made once per test process. */
export function testCertificate() {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'drift-wh-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  cached = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), certFile: join(dir, 'cert.pem') };
  return cached;
}

export interface Received { headers: IncomingHttpHeaders; body: string; url: string }

/**
 * An HTTPS receiver. `answer` decides each response from the number of requests so far
 * (default 200); `failTimes` answers 500 that many times first.
 */
export async function receiver(t: Test, opts: { failTimes?: number; status?: number; answer?: (n: number, r: Received) => { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } } = {}) {
  const { key, cert } = testCertificate();
  const received: Received[] = [];
  const server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), url: req.url ?? '/' };
      received.push(r);
      const n = received.length;
      const a = opts.answer?.(n, r) ?? { status: n <= (opts.failTimes ?? 0) ? 500 : (opts.status ?? 200), body: n <= (opts.failTimes ?? 0) ? 'x'.repeat(5000) : 'ok' };
      const send = () => { res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers }); res.end(a.body ?? ''); };
      if (a.delayMs) setTimeout(send, a.delayMs); else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return { url: `https://127.0.0.1:${port}/hook`, port, received };
}

/** Settings of an app that reaches the loopback receivers: 127.0.0.1 allowed, the test CA trusted, no background worker. */
export const receiverEnv = () => ({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', OUTBOUND_EXTRA_CA_FILE: testCertificate().certFile, WEBHOOK_WORKER: false });
