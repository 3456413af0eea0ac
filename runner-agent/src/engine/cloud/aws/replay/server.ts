// The replay fake: a loopback HTTP server that answers the engine's own SDK clients (through the
// endpoint override) with exactly what a state says. Each request's service comes from its SigV4
// credential scope, its operation and input from the wire (wire.ts), its answer from the readers'
// `answers`. An operation no reader declared an answer for fails loudly (501): a reader that
// calls something the fake cannot answer is a bug, not a drift.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StateInstance } from '../../../types.ts';
import { AWS_CLIENTS, SIGNING_NAMES, type AwsService } from '../context.ts';
import type { Answer, FakeWorld } from '../reader.ts';
import { FakeError, operationOf, readInput, writeError, writeOutput, type OperationSchema, type ServiceWire, type WireRequest } from './wire.ts';

const PROTOCOLS: Record<string, ServiceWire['protocol']> = {
  'aws.protocols#ec2Query': 'ec2', 'aws.protocols#awsQuery': 'query', 'aws.protocols#awsJson1_0': 'json',
  'aws.protocols#awsJson1_1': 'json', 'aws.protocols#restJson1': 'restJson', 'aws.protocols#restXml': 'restXml',
};

/** Each service's protocol, as its SDK client is configured (read once from a client instance). */
function serviceWire(service: AwsService): ServiceWire {
  const Ctor = AWS_CLIENTS[service] as unknown as new (cfg: Record<string, unknown>) => { config: { protocol: unknown }; destroy(): void };
  const client = new Ctor({ region: 'us-east-1', credentials: { accessKeyId: 'replay', secretAccessKey: 'replay' } });
  const p = client.config.protocol as { getShapeId(): string; options?: { xmlNamespace?: string }; awsQueryCompatible?: boolean };
  client.destroy();
  const protocol = PROTOCOLS[p.getShapeId()];
  if (!protocol) throw new Error(`replay: ${service} speaks ${p.getShapeId()}, which the fake does not`);
  return { protocol, xmlNamespace: p.options?.xmlNamespace ?? (service === 'route53' ? 'https://route53.amazonaws.com/doc/2013-04-01/' : undefined), queryCompatible: Boolean(p.awsQueryCompatible) };
}

const opKey = (op: OperationSchema) => `${op[1]}#${op[2]}`;

/**
 * The fake's world: the state's instances by type. With `placement` (each instance's region, as
 * the scan resolves it), a regional service's request sees only the instances of the region it
 * was signed for, so a reader asking the wrong region finds nothing or another region's copy,
 * as it would in the cloud; instances without a placement, and global services, see all.
 */
export function stateWorld(instances: StateInstance[], placement?: Map<StateInstance, string>): RegionalWorld {
  const byType = new Map<string, StateInstance[]>();
  for (const i of instances) byType.set(i.type, [...(byType.get(i.type) ?? []), i]);
  const world: RegionalWorld = { of: (type) => byType.get(type) ?? [] };
  if (placement?.size) {
    world.in = (region) => ({ of: (type) => (byType.get(type) ?? []).filter((i) => { const r = placement.get(i); return !r || r === region; }) });
  }
  return world;
}

export interface RegionalWorld extends FakeWorld { in?: (region: string) => FakeWorld }
/** Services whose one endpoint answers for every region (their clients sign for us-east-1). */
const GLOBAL_SERVICES = new Set(['iam', 'route53', 'cloudfront', 'sts', 'organizations']);

export interface FakeCloud { endpoint: string; calls: number; close(): Promise<void> }

export async function startFakeCloud(world: RegionalWorld, answers: Answer[]): Promise<FakeCloud> {
  const byService = new Map<string, { wire: ServiceWire; ops: OperationSchema[]; handlers: Map<string, Answer> }>();
  // Keyed by signing name, as requests name their service; two clients may share one (API
  // Gateway v1 and v2: same protocol, distinct paths), so operations are keyed by namespace too.
  for (const a of answers) {
    const signing = SIGNING_NAMES[a.service] ?? a.service;
    let s = byService.get(signing);
    if (!s) byService.set(signing, s = { wire: serviceWire(a.service), ops: [], handlers: new Map() });
    if (!s.handlers.has(opKey(a.op))) { s.handlers.set(opKey(a.op), a); s.ops.push(a.op); }
  }
  const fake: FakeCloud = { endpoint: '', calls: 0, close: async () => {} };
  const server = createServer((req, res) => {
    fake.calls++;
    void handle(req, res).catch((e: unknown) => send(res, { status: 500, headers: { 'content-type': 'text/plain' }, body: `replay fake: ${(e as Error).stack ?? String(e)}` }));
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v ?? '']));
    const wireReq: WireRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers, body: Buffer.concat(chunks).toString('utf8') };
    // SigV4: Credential=<key>/<date>/<region>/<service>/aws4_request
    const scope = /Credential=[^/]+\/[^/]+\/([^/]+)\/([^/]+)\//.exec(headers.authorization ?? '');
    const service = scope?.[2] ?? '';
    const seen = world.in && scope && !GLOBAL_SERVICES.has(service) ? world.in(scope[1]) : world;
    const s = byService.get(service);
    const op = s && operationOf(s.wire, wireReq, s.ops);
    if (!s || !op) {
      const wire = s?.wire ?? { protocol: 'json' as const, queryCompatible: false };
      return send(res, writeError(wire, new FakeError('NotImplemented', `the replay fake has no answer for ${service} ${wireReq.method} ${wireReq.path} ${wireReq.body.slice(0, 80)}`, 501), wireReq.method));
    }
    try {
      const input = readInput(s.wire, op, wireReq);
      const output = await s.handlers.get(opKey(op))!.answer(input, seen);
      send(res, writeOutput(s.wire, op, (output ?? {}) as Record<string, unknown>));
    } catch (e) {
      if (e instanceof FakeError) return send(res, writeError(s.wire, e, wireReq.method));
      throw e;
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return fake;
}

function send(res: ServerResponse, out: { status: number; headers: Record<string, string>; body: string }): void {
  res.writeHead(out.status, { ...out.headers, 'content-length': Buffer.byteLength(out.body) });
  res.end(out.body);
}
