// GET /health: 200 while the service, its database and Redis answer; 503 naming the part
// that does not. Not a manifest route: it belongs to the engine and needs no plugin.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from './db.ts';
import type { RedisPair } from './redis.ts';
import { ErrorBody } from './schemas.ts';

const TIMEOUT_MS = 1500;

const Probe = Type.Object({ status: Type.Union([Type.Literal('up'), Type.Literal('down')]), latency: Type.Union([Type.Number(), Type.Null()]), error: Type.Optional(Type.String()) });
const Report = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]), down: Type.Array(Type.String()),
  database: Probe, redis: Probe, uptime: Type.Integer(),
});

async function probe(fn: () => Promise<number>) {
  try {
    const latency = await Promise.race([fn(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), TIMEOUT_MS).unref())]);
    return { status: 'up' as const, latency: Math.round(latency * 100) / 100 };
  } catch (err) {
    return { status: 'down' as const, latency: null, error: (err as Error).message };
  }
}

export async function healthReport(db: Database, redis: RedisPair) {
  const [database, cache] = await Promise.all([probe(() => db.ping()), probe(() => redis.ping())]);
  const down = [database.status === 'down' && 'database', cache.status === 'down' && 'redis'].filter(Boolean) as string[];
  return { ok: down.length === 0, body: { status: down.length ? 'degraded' : 'ok', down, database, redis: cache, uptime: Math.round(process.uptime()) } };
}

export function registerHealth(app: FastifyInstance, db: Database, redis: RedisPair) {
  app.get('/health', {
    schema: {
      operationId: 'getHealth', tags: ['health'], summary: 'Service, database and Redis status',
      // The same report either way; 503 names the parts that are down. While the server drains
      // (core/shutdown.ts) the 503 is the error shape, code shutting_down.
      response: {
        200: { description: 'Every part answers', ...Report },
        503: Type.Union([Report, ErrorBody], { description: 'The database or Redis does not answer (the report: status degraded, down names it), or the server is shutting down (the error shape, shutting_down)' }),
      },
    },
  }, async (_req, reply) => {
    const { ok, body } = await healthReport(db, redis);
    return reply.code(ok ? 200 : 503).send(body);
  });
}
