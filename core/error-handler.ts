// The one error mapper (installed before any plugin): known errors keep their code,
// status and message; Fastify's own 4xx keep their status; store outages become 503;
// anything else is a generic 500 with the request id, logged in full, never a stack trace.
import { STATUS_CODES as HTTP_REASONS } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreDown } from './db.ts';
import { AppError, ERRORS } from './errors.ts';
import type { ErrorFormat } from './manifest.ts';
import { describeValidation } from './validation.ts';

const STATUS_CODES: Record<number, string> = {
  400: 'bad_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 405: 'method_not_allowed',
  406: 'not_acceptable', 409: 'conflict', 413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited',
};

export function errorHandler(err: FastifyError | AppError | Error, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) {
    if (err.headers) reply.headers(err.headers);
    return send(reply, err.statusCode, err.code, err.message, err.details);
  }
  const fe = err as FastifyError;
  if (fe.validation) {
    const { message, details } = describeValidation(fe.validationContext ?? 'request', fe.validation as never);
    return send(reply, 400, 'validation_failed', message, details);
  }
  if (MALFORMED_UPLOAD.test(err.message) && !fe.statusCode) {
    return send(reply, 400, 'bad_request', `The multipart/form-data body is malformed (${err.message})`);
  }
  if (isStoreDown(err)) {
    req.log.error({ err }, 'store unavailable');
    return send(reply, 503, 'store_unavailable', 'The database is unavailable; try again shortly');
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return send(reply, fe.statusCode, STATUS_CODES[fe.statusCode] ?? 'bad_request', fe.message);
  }
  req.log.error({ err }, 'unhandled error');
  return send(reply, 500, 'internal', `Internal server error (request ${req.id})`);
}

// What the multipart parser (busboy) throws, without a status, for a body it cannot read.
const MALFORMED_UPLOAD = /^(Multipart: Boundary not found|Unexpected end of (form|file|multipart data)|Malformed (part )?header|Malformed urlencoded form)/;

export function notFoundHandler(req: FastifyRequest, reply: FastifyReply) {
  return send(reply, 404, 'not_found', `Route ${req.method} ${req.url.split('?')[0]} not found`);
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * A path no route matches, answered in a manifest's error format (Manifest.unmatched): 405 with
 * `Allow` when the path exists for other methods (RFC 9110 §15.5.6; RFC 7644 §3.12), else 404.
 */
export const notFoundHandlerIn = (format: ErrorFormat) => (req: FastifyRequest, reply: FastifyReply) => {
  const path = req.url.split('?')[0];
  const allowed = METHODS.filter((method) => req.server.hasRoute({ method, url: path }));
  if (allowed.length) {
    reply.header('allow', allowed.join(', '));
    return send(reply, 405, 'method_not_allowed', `${req.method} is not allowed on ${path}; use ${allowed.join(', ')}`, undefined, format);
  }
  return send(reply, 404, 'not_found', `Route ${req.method} ${path} not found`, undefined, format);
};

function send(reply: FastifyReply, status: number, code: string, message: string, details?: unknown, format?: ErrorFormat) {
  if ((format ?? reply.request.routeOptions.config?.errorFormat) === 'scim') return sendScim(reply, status, code, message, details);
  return reply.code(status).type('application/json').send({ success: false, error: details === undefined ? { code, message } : { code, message, details } });
}



/**
 * The SCIM error schema (RFC 7644 §3.12) for routes whose manifest says errorFormat 'scim':
 * `status` as a string, `scimType` where the RFC names one (an AppError's details.scimType;
 * invalidValue for a body breaking the schema, invalidSyntax for one that is not JSON).
 */
function sendScim(reply: FastifyReply, status: number, code: string, message: string, details?: unknown) {
  const given = (details as { scimType?: unknown } | undefined)?.scimType;
  const scimType = typeof given === 'string' ? given
    : code === 'validation_failed' ? 'invalidValue'
    : status === 400 && /not valid JSON/.test(message) ? 'invalidSyntax'
    : undefined;
  return reply.code(status).type('application/scim+json').send({
    schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: String(status), ...(scimType ? { scimType } : {}), detail: message,
  });
}

/**
 * Fastify's frameworkErrors: what the router refuses before any route runs (a path parameter
 * longer than maxParamLength is 414, a URL it cannot decode 400), in the one error shape.
 */
export function frameworkErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  // No route ran, so no route's errorFormat: a path under a manifest's `unmatched` prefix answers in its format.
  const format = formatOfPath(req.url);
  if (status === 414) return send(reply, 414, 'uri_too_long', ERRORS.uri_too_long[1], undefined, format);
  return send(reply, status, 'bad_request', err.message, undefined, format);
}

/** Path prefixes answered in a manifest's own error format (Manifest.unmatched), as the loader registers them. */
const prefixFormats = new Map<string, ErrorFormat>();
export function answerPrefixIn(prefix: string, format: ErrorFormat) { prefixFormats.set(prefix, format); }
function formatOfPath(url: string): ErrorFormat | undefined {
  for (const [prefix, format] of prefixFormats) if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) return format;
  return undefined;
}

/**
 * The HTTP server's clientError (before Fastify sees a request): headers too large (431),
 * a client that took too long (408), anything unparsable (400), in the one error shape.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const code = err.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'bad_request';
  const [status, known] = ERRORS[code];
  const message = code === 'bad_request' ? 'The request is not valid HTTP' : known;
  const body = JSON.stringify({ success: false, error: { code, message } });
  socket.end(`HTTP/1.1 ${status} ${HTTP_REASONS[status]}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/**
 * Requests that arrive while the server drains answer 503 in the one error shape (Fastify's
 * own 503 has another); `Connection: close` sends the client elsewhere.
 */
export function refuseWhileClosing(app: FastifyInstance) {
  let closing = false;
  app.addHook('preClose', async () => { closing = true; });
  app.addHook('onRequest', async (_req, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    return send(reply, 503, 'shutting_down', ERRORS.shutting_down[1]);
  });
}
