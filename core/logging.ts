// Logs and request ids. Every response carries `x-request-id` (the caller's own when it sends a
// plausible one, so a proxy's id follows the request; a new UUID otherwise) and every log line
// written for the request carries it as `reqId`. One line per request, when it completes:
// route id, method, path, status, duration. Lines go through an asynchronous buffered
// destination (pino's sonic-boom), flushed when the app closes.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const PLAUSIBLE_ID = /^[\w.:@-]{1,128}$/;

/** Fastify's genReqId: the caller's id when plausible (letters, digits, `.:@_-`, at most 128), else a UUID. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && PLAUSIBLE_ID.test(given) ? given : randomUUID();
}

export type LogDestination = ReturnType<typeof pino.destination>;

/**
 * The logger options of the service: the configured level, written to `dest` (stdout by default)
 * through a buffered asynchronous stream. A per-line synchronous write cost more than the rest of
 * a cached request (docs/operations.md, hot path).
 */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL'>, dest: number | string = 1): { level: string; stream: LogDestination } {
  return { level: config.LOG_LEVEL, stream: pino.destination({ dest, sync: false, minLength: 4096 }) };
}

/** Sets the request id header first thing, and writes the one completion line per request. */
export function requestLogging(app: FastifyInstance, stream: LogDestination | undefined) {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info(completion(req, reply), 'request completed');
    done();
  });
  if (stream) {
    app.addHook('onClose', (_app, done) => {
      try { stream.flushSync(); } catch { /* not ready yet or already closed */ }
      done();
    });
  }
}

function completion(req: FastifyRequest, reply: FastifyReply) {
  const spec = (req.routeOptions.config as { spec?: { id: string } }).spec;
  const q = req.url.indexOf('?');
  // The path without its query string: a query may carry a token (runner links, downloads).
  return { route: spec?.id, method: req.method, path: q === -1 ? req.url : req.url.slice(0, q), status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 };
}
