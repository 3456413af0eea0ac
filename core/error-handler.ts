// The one error mapper (installed before any plugin): known errors keep their code,
// status and message; Fastify's own 4xx keep their status; store outages become 503;
// anything else is a generic 500 with the request id, logged in full, never a stack trace.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreDown } from './db.ts';
import { AppError } from './errors.ts';

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
    const first = fe.validation[0];
    const where = `${fe.validationContext ?? 'request'}${first?.instancePath ?? ''}`;
    const details = fe.validation.map((v) => ({ path: `${fe.validationContext ?? ''}${v.instancePath}`, message: v.message, params: v.params }));
    return send(reply, 400, 'validation_failed', `${where} ${first?.message ?? 'is invalid'}`, details);
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

export function notFoundHandler(req: FastifyRequest, reply: FastifyReply) {
  return send(reply, 404, 'not_found', `Route ${req.method} ${req.url.split('?')[0]} not found`);
}

function send(reply: FastifyReply, status: number, code: string, message: string, details?: unknown) {
  return reply.code(status).type('application/json').send({ success: false, error: details === undefined ? { code, message } : { code, message, details } });
}


