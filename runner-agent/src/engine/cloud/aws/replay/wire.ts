// The fake cloud's wire protocols, driven by the SDK's own operation schemas: an incoming request
// is read back into the operation's input shape, and an answer (in the output shape the SDK gives
// its callers) is written the way the real service writes it, so the SDK parses it through the
// same deserializer a real answer goes through. One reader and one writer per protocol family:
// EC2 query, awsQuery, awsJson 1.0/1.1, restJson1, restXml.
import { parseXML, XmlNode, XmlText } from '@aws-sdk/xml-builder';
import { XmlShapeDeserializer, XmlShapeSerializer } from '@aws-sdk/core/protocols';
import { JsonShapeSerializer } from '@smithy/core/protocols';
import { NormalizedSchema } from '@smithy/core/schema';

export type Protocol = 'ec2' | 'query' | 'json' | 'restJson' | 'restXml';
/** An operation schema as the SDK clients export it (`DescribeVpcs$`): [9, namespace, name, traits, input, output]. */
export type OperationSchema = readonly [number, string, string, unknown, unknown, unknown];

export interface ServiceWire { protocol: Protocol; xmlNamespace?: string; queryCompatible: boolean }
export interface WireRequest { method: string; path: string; query: URLSearchParams; headers: Record<string, string>; body: string }
export interface WireResponse { status: number; headers: Record<string, string>; body: string }

/** A service error as the real API returns it: its code, HTTP status and message. */
export class FakeError extends Error {
  /** `queryCode`: the awsQuery-era code a JSON service still sends in x-amzn-query-error (SQS). */
  readonly code: string;
  readonly status: number;
  readonly queryCode?: string;
  constructor(code: string, message: string, status = 400, queryCode?: string) {
    super(message);
    this.code = code;
    this.status = status;
    this.queryCode = queryCode;
  }
}

const opName = (op: OperationSchema) => op[2];
const httpTrait = (op: OperationSchema) => (op[3] as { http?: [string, string, number] } | undefined)?.http;
const requestId = () => `replay-${Math.random().toString(16).slice(2, 10)}`;

/** The operation a request calls, among `ops` (the ones the fake answers for this service). */
export function operationOf(wire: ServiceWire, req: WireRequest, ops: OperationSchema[]): OperationSchema | undefined {
  if (wire.protocol === 'ec2' || wire.protocol === 'query') {
    const action = new URLSearchParams(req.body).get('Action');
    return ops.find((o) => opName(o) === action);
  }
  if (wire.protocol === 'json') {
    const target = req.headers['x-amz-target']?.split('.').pop();
    return ops.find((o) => opName(o) === target);
  }
  // S3 tells operations on one path apart by a query key (`?versioning`): the most specific fit wins.
  const fits = ops.filter((o) => matchPath(o, req) !== undefined);
  return fits.sort((a, b) => fixedKeys(b).length - fixedKeys(a).length)[0];
}

const fixedKeys = (op: OperationSchema) => (httpTrait(op)?.[1].split('?')[1] ?? '').split('&').filter(Boolean).map((p) => p.split('=')[0]);

/** URI labels of a rest operation when the request's method and path fit its http trait. */
function matchPath(op: OperationSchema, req: WireRequest): Record<string, string> | undefined {
  const http = httpTrait(op);
  if (!http || http[0] !== req.method) return undefined;
  const [pattern] = http[1].split('?');
  const labels: Record<string, string> = {};
  let path = req.path;
  // S3's bucket is a label its endpoint rules place, not its URI pattern: path-style, it leads the path.
  const unplaced = [...NormalizedSchema.of(op[4] as never).structIterator()]
    .filter(([name, m]) => m.getMergedTraits().httpLabel && !pattern.includes(`{${name}`)).map(([name]) => name);
  if (unplaced.length === 1) {
    const m = /^\/([^/]+)(.*)$/.exec(path);
    if (!m) return undefined;
    labels[unplaced[0]] = decodeURIComponent(m[1]);
    path = m[2] || '/';
  }
  const names: string[] = [];
  const re = new RegExp(`^${pattern.replace(/\/$/, '').replace(/\{(\w+)(\+?)\}|[^{]+/g, (m, name: string, greedy: string) => {
    if (!name) return m.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    names.push(name);
    return greedy ? '(.+)' : '([^/]+)';
  })}/?$`);
  const m = re.exec(path);
  if (!m) return undefined;
  if (fixedKeys(op).some((k) => !req.query.has(k))) return undefined;
  names.forEach((n, i) => { labels[n] = decodeURIComponent(m[i + 1]); });
  return labels;
}

// ---- requests --------------------------------------------------------------------------------

export function readInput(wire: ServiceWire, op: OperationSchema, req: WireRequest): Record<string, unknown> {
  const ns = NormalizedSchema.of(op[4] as never);
  if (wire.protocol === 'ec2' || wire.protocol === 'query') {
    const params = new URLSearchParams(req.body);
    return (readQuery(ns, '', params, wire.protocol === 'ec2') ?? {}) as Record<string, unknown>;
  }
  if (wire.protocol === 'json') return req.body ? JSON.parse(req.body) as Record<string, unknown> : {};
  const labels = matchPath(op, req) ?? {};
  const out: Record<string, unknown> = {};
  const bodyMembers: [string, NormalizedSchema][] = [];
  for (const [name, m] of ns.structIterator()) {
    const t = m.getMergedTraits();
    if (t.httpLabel) out[name] = labels[name];
    else if (typeof t.httpQuery === 'string') {
      const vals = req.query.getAll(t.httpQuery);
      if (vals.length) out[name] = m.isListSchema() ? vals : simple(m, vals[0]);
    } else if (typeof t.httpHeader === 'string') {
      const v = req.headers[t.httpHeader.toLowerCase()];
      if (v !== undefined) out[name] = simple(m, v);
    } else bodyMembers.push([name, m]);
  }
  if (req.body && bodyMembers.length) {
    if (wire.protocol === 'restJson') {
      const body = JSON.parse(req.body) as Record<string, unknown>;
      for (const [name, m] of bodyMembers) {
        const key = (m.getMergedTraits().jsonName as string | undefined) ?? name;
        if (key in body) out[name] = body[key];
      }
    } else {
      const xml = new XmlShapeDeserializer({ timestampFormat: { useTrait: true, default: 5 }, httpBindings: true, xmlNamespace: '', serviceNamespace: '' });
      const payload = bodyMembers.find(([, m]) => m.getMergedTraits().httpPayload);
      const parsed = parseXML(req.body) as Record<string, unknown>;
      const root = parsed[Object.keys(parsed)[0]];
      if (payload) out[payload[0]] = xml.readSchema(payload[1], root);
      else Object.assign(out, xml.readSchema(ns, root) as Record<string, unknown>);
    }
  }
  return out;
}

/** Query parameters (`Filter.1.Value.2=...`) back into the input shape. */
function readQuery(ns: NormalizedSchema, key: string, params: URLSearchParams, ec2: boolean): unknown {
  const has = (k: string) => params.has(k) || [...params.keys()].some((p) => p.startsWith(`${k}.`));
  const at = (k: string) => (key ? `${key}.${k}` : k);
  if (ns.isStructSchema()) {
    if (key && !has(key)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [name, m] of ns.structIterator()) {
      const t = m.getMergedTraits();
      const own = ec2 ? ((t.ec2QueryName as string | undefined) ?? cap((t.xmlName as string | undefined) ?? name)) : ((t.xmlName as string | undefined) ?? name);
      const v = readQuery(m, at(own), params, ec2);
      if (v !== undefined) out[name] = v;
    }
    return out;
  }
  if (ns.isListSchema()) {
    if (!has(key)) return undefined;
    const item = ns.getValueSchema();
    const t = item.getMergedTraits();
    const flat = ec2 || ns.getMergedTraits().xmlFlattened;
    const base = flat ? key : `${key}.${(ec2 && t.ec2QueryName) || t.xmlName || 'member'}`;
    const out: unknown[] = [];
    for (let i = 1; has(`${base}.${i}`); i++) out.push(readQuery(item, `${base}.${i}`, params, ec2));
    return out;
  }
  if (ns.isMapSchema()) {
    if (!has(key)) return undefined;
    const out: Record<string, unknown> = {};
    const flat = ns.getMergedTraits().xmlFlattened;
    for (let i = 1; has(`${key}.${flat ? '' : 'entry.'}${i}`); i++) {
      const e = `${key}.${flat ? '' : 'entry.'}${i}`;
      out[String(params.get(`${e}.key`))] = readQuery(ns.getValueSchema(), `${e}.value`, params, ec2);
    }
    return out;
  }
  const v = params.get(key);
  return v === null ? undefined : simple(ns, v);
}

const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
function simple(ns: NormalizedSchema, v: string): unknown {
  if (ns.isBooleanSchema()) return v === 'true';
  if (ns.isNumericSchema()) return Number(v);
  return v;
}

// ---- answers ---------------------------------------------------------------------------------

export function writeOutput(wire: ServiceWire, op: OperationSchema, output: Record<string, unknown>): WireResponse {
  const ns = NormalizedSchema.of(op[5] as never);
  const name = opName(op);
  const xmlHeaders = { 'content-type': 'text/xml', 'x-amzn-requestid': requestId() };
  if (wire.protocol === 'ec2' || wire.protocol === 'query') {
    const inner = xmlStruct(ns, output);
    if (wire.protocol === 'ec2') {
      inner.withName(`${name}Response`).addAttribute('xmlns', wire.xmlNamespace ?? '');
      inner.addChildNode(XmlNode.of('requestId', requestId()));
      return { status: 200, headers: xmlHeaders, body: inner.toString() };
    }
    const root = XmlNode.of(`${name}Response`).addAttribute('xmlns', wire.xmlNamespace ?? '');
    root.addChildNode(inner.withName(`${name}Result`));
    root.addChildNode(XmlNode.of('ResponseMetadata').addChildNode(XmlNode.of('RequestId', requestId())));
    return { status: 200, headers: xmlHeaders, body: root.toString() };
  }
  if (wire.protocol === 'json') {
    const ser = new JsonShapeSerializer({ timestampFormat: { useTrait: true, default: 7 }, jsonName: false });
    ser.write(ns, output);
    return { status: 200, headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': requestId() }, body: String(ser.flush()) };
  }
  // rest protocols: header-bound members go to headers, a payload member is the body, the rest a document.
  const headers: Record<string, string> = { 'x-amzn-requestid': requestId() };
  const body: Record<string, unknown> = {};
  let payload: [NormalizedSchema, unknown] | undefined;
  for (const [member, m] of ns.structIterator()) {
    const v = output[member];
    if (v === undefined || v === null) continue;
    const t = m.getMergedTraits();
    if (typeof t.httpHeader === 'string') headers[t.httpHeader.toLowerCase()] = v instanceof Date ? v.toUTCString() : String(v);
    // A map spread over prefixed headers (S3 object metadata: x-amz-meta-<key>).
    else if (typeof t.httpPrefixHeaders === 'string') for (const [k, x] of Object.entries(v as Record<string, unknown>)) headers[`${t.httpPrefixHeaders}${k}`.toLowerCase()] = String(x);
    else if (t.httpPayload) payload = [m, v];
    else body[member] = v;
  }
  if (wire.protocol === 'restJson') {
    const ser = new JsonShapeSerializer({ timestampFormat: { useTrait: true, default: 7 }, jsonName: true });
    ser.write(ns, body);
    return { status: httpTrait(op)?.[2] ?? 200, headers: { ...headers, 'content-type': 'application/json' }, body: String(ser.flush()) };
  }
  if (payload && !payload[0].isStructSchema()) return { status: 200, headers, body: String(payload[1]) };
  const node = payload ? xmlStruct(payload[0], payload[1] as Record<string, unknown>) : Object.keys(body).length ? xmlStruct(ns, body) : undefined;
  if (node && wire.xmlNamespace) node.addAttribute('xmlns', wire.xmlNamespace);
  // An output bound to Content-Type (HeadObject's ContentType) keeps its own value.
  return { status: 200, headers: { 'content-type': 'application/xml', ...headers }, body: node ? node.toString() : '' };
}

function xmlStruct(ns: NormalizedSchema, value: Record<string, unknown>): XmlNode {
  const ser = new XmlShapeSerializer({ timestampFormat: { useTrait: true, default: 5 }, httpBindings: false, xmlNamespace: '', serviceNamespace: '' });
  return (ser as unknown as { writeStruct(ns: NormalizedSchema, v: unknown, xmlns: undefined): XmlNode }).writeStruct(ns, value, undefined);
}

export function writeError(wire: ServiceWire, err: FakeError, method: string): WireResponse {
  const id = requestId();
  const el = (name: string, text: string) => XmlNode.of(name).addChildNode(new XmlText(text));
  const xml = (root: XmlNode) => ({ status: err.status, headers: { 'content-type': 'text/xml', 'x-amzn-requestid': id }, body: method === 'HEAD' ? '' : root.toString() });
  const errorNode = () => XmlNode.of('Error').addChildNode(el('Type', 'Sender')).addChildNode(el('Code', err.code)).addChildNode(el('Message', err.message));
  switch (wire.protocol) {
    case 'ec2':
      return xml(XmlNode.of('Response').addChildNode(XmlNode.of('Errors').addChildNode(errorNode())).addChildNode(el('RequestID', id)));
    case 'query':
      return xml(XmlNode.of('ErrorResponse').addChildNode(errorNode()).addChildNode(el('RequestId', id)));
    case 'restXml':
      // S3 answers a bare <Error>; Route 53 wraps it in <ErrorResponse>.
      return xml(wire.xmlNamespace?.includes('route53') ? XmlNode.of('ErrorResponse').addChildNode(errorNode()) : errorNode().addChildNode(el('RequestId', id)));
    default: {
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-amzn-requestid': id, 'x-amzn-errortype': err.code };
      if (wire.queryCompatible) headers['x-amzn-query-error'] = `${err.queryCode ?? err.code};Sender`;
      return { status: err.status, headers, body: JSON.stringify({ __type: err.code, message: err.message }) };
    }
  }
}
