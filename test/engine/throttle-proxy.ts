// A loopback proxy in front of moto that throttles as AWS does: one token bucket per (region,
// service) read from the request's SigV4 credential scope, `capacity` tokens refilled `perSecond`;
// a request finding the bucket empty is answered with the service protocol's throttling error
// (EC2 503 RequestLimitExceeded, S3 503 SlowDown, JSON protocols 400 ThrottlingException, query
// protocols 400 Throttling) and never reaches moto. Every request is logged with its time.
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** signedAgoMs: how long before its arrival the request was signed (its x-amz-date, 1 s resolution). */
export interface ProxyLog { at: number; service: string; throttled: boolean; signedAgoMs: number }

export interface ThrottleProxy {
  url: string;
  log: ProxyLog[];
  /** Most requests that reached the proxy (throttled or not) within any 1 s window, for a service. */
  peakPerSecond(service: string): number;
  reset(): void;
  close(): Promise<void>;
}

function scopeOf(req: IncomingMessage): { region: string; service: string } {
  const auth = String(req.headers.authorization ?? '');
  const m = /Credential=[^/]+\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/.exec(auth);
  return m ? { region: m[1], service: m[2] } : { region: '?', service: '?' };
}

function throttleAnswer(service: string, req: IncomingMessage, body: string): { status: number; type: string; text: string; headers?: Record<string, string> } {
  if (req.headers['x-amz-target']) {
    return { status: 400, type: 'application/x-amz-json-1.1', text: JSON.stringify({ __type: 'ThrottlingException', message: 'Rate exceeded' }), headers: { 'x-amzn-errortype': 'ThrottlingException' } };
  }
  if (service === 'ec2') {
    return { status: 503, type: 'text/xml', text: '<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit exceeded.</Message></Error></Errors><RequestID>proxy</RequestID></Response>' };
  }
  if (service === 's3') {
    return { status: 503, type: 'application/xml', text: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message><RequestId>proxy</RequestId></Error>' };
  }
  void body;
  return { status: 400, type: 'text/xml', text: '<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message></Error><RequestId>proxy</RequestId></ErrorResponse>' };
}

export async function startThrottleProxy(target: string, opts: { perSecond: number; capacity: number }): Promise<ThrottleProxy> {
  const upstream = new URL(target);
  const buckets = new Map<string, { tokens: number; at: number }>();
  const log: ProxyLog[] = [];
  const take = (key: string): boolean => {
    const now = performance.now();
    const b = buckets.get(key) ?? { tokens: opts.capacity, at: now };
    b.tokens = Math.min(opts.capacity, b.tokens + ((now - b.at) * opts.perSecond) / 1000);
    b.at = now;
    buckets.set(key, b);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const { region, service } = scopeOf(req);
      const allowed = take(`${region}/${service}`);
      const stamp = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(String(req.headers['x-amz-date'] ?? ''));
      const signedAt = stamp ? Date.UTC(+stamp[1], +stamp[2] - 1, +stamp[3], +stamp[4], +stamp[5], +stamp[6]) : Date.now();
      log.push({ at: performance.now(), service, throttled: !allowed, signedAgoMs: Date.now() - signedAt });
      if (!allowed) {
        const a = throttleAnswer(service, req, body.toString('utf8'));
        res.writeHead(a.status, { 'content-type': a.type, 'content-length': Buffer.byteLength(a.text), ...a.headers });
        res.end(a.text);
        return;
      }
      const fwd = request({
        host: upstream.hostname, port: upstream.port, method: req.method, path: req.url,
        headers: req.headers, // the signed host header stays as the SDK sent it (moto checks no signature)
      }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      fwd.on('error', () => { res.writeHead(502); res.end(); });
      fwd.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    peakPerSecond(service) {
      const times = log.filter((l) => l.service === service).map((l) => l.at).sort((a, b) => a - b);
      let peak = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while (times[i] - times[j] >= 1000) j++;
        peak = Math.max(peak, i - j + 1);
      }
      return peak;
    },
    reset() { log.length = 0; buckets.clear(); },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
