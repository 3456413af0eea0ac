// Prometheus metrics (prom-client), one registry per app: request rate and latency by route id
// and status, database command latency, and gauges read at scrape time (the store pings, and
// whatever a plugin registers with ctx.metrics.gauge: scans by status, runners, queue depths,
// an outbox backlog). Requests also reach the observers a plugin adds (ctx.metrics.onRequest:
// the admin plugin's usage analytics), after the response, from the same hook.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { timingSafeEqual } from 'node:crypto';
import type { Database } from './db.ts';
import type { RedisPair } from './redis.ts';
import { unauthorized } from './errors.ts';
import { ErrorBody } from './schemas.ts';

/** What the service knows of one finished request: no path parameters, no body, no address. */
export interface RequestFacts {
  /** The manifest entry's id (operationId); `(unmatched)` for a 404 no route claims, `(engine)` for /health and /metrics. */
  routeId: string;
  /** The manifest's plugin, or null outside a manifest route. */
  plugin: string | null;
  method: string;
  status: number;
  seconds: number;
  /** The plan of the organization the guards resolved, or null when the route has none. */
  plan: string | null;
  /** The authenticated user, for observers that keep a hashed daily marker; never a label. */
  userId: string | null;
}

/** One sample of a gauge: its labels (the names given at registration) and value. */
export interface GaugeSample { labels?: Record<string, string>; value: number }

export interface Metrics {
  registry: Registry;
  /**
   * A gauge read at each scrape: `collect` answers its current samples (a count query, a queue
   * length). A failing collect leaves the gauge empty for that scrape and is logged, so one
   * store down does not take /metrics with it. Names get the `drift_` prefix.
   */
  gauge(name: string, help: string, labelNames: readonly string[], collect: () => Promise<GaugeSample[]> | GaugeSample[]): void;
  /** Runs after every response (keep it cheap: it is on every request's path). */
  onRequest(fn: (facts: RequestFacts) => void): void;
  /** Called by the engine's onResponse hook. */
  record(facts: RequestFacts): void;
}

const PREFIX = 'drift_';

export function createMetrics(log: { warn(obj: object, msg: string): void }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  const requests = new Counter({ name: `${PREFIX}http_requests_total`, help: 'HTTP requests answered, by route id, method and status', labelNames: ['route', 'method', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`, help: 'Time from request to response, by route id, method and status',
    labelNames: ['route', 'method', 'status'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
  });
  const observers: ((f: RequestFacts) => void)[] = [];
  // Labelled children by route, method and status: prom-client would hash the label object on every call.
  const children = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();
  return {
    registry,
    gauge(name, help, labelNames, collect) {
      new Gauge({
        name: `${PREFIX}${name}`, help, labelNames: [...labelNames], registers: [registry],
        async collect() {
          this.reset();
          try {
            for (const s of await collect()) (s.labels ? this.set(s.labels, s.value) : this.set(s.value));
          } catch (err) {
            log.warn({ err, metric: name }, 'metric not collected');
          }
        },
      });
    },
    onRequest(fn) { observers.push(fn); },
    record(f) {
      const key = `${f.routeId} ${f.method} ${f.status}`;
      let child = children.get(key);
      if (!child) {
        const labels = { route: f.routeId, method: f.method, status: String(f.status) };
        child = { count: requests.labels(labels), time: latency.labels(labels) };
        children.set(key, child);
      }
      child.count.inc();
      child.time.observe(f.seconds);
      for (const fn of observers) {
        try { fn(f); } catch (err) { log.warn({ err }, 'request observer failed'); }
      }
    },
  };
}

/** Engine-level gauges and histograms: database command latency (the driver's own timings) and the store pings. */
export function storeMetrics(metrics: Metrics, db: Database, redis: RedisPair): void {
  const commands = new Histogram({
    name: `${PREFIX}db_command_duration_seconds`, help: 'Database command round trips as the driver timed them, by command',
    labelNames: ['command'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5], registers: [metrics.registry],
  });
  db.client.on('commandSucceeded', (e) => commands.observe({ command: e.commandName }, e.duration / 1000));
  db.client.on('commandFailed', (e) => commands.observe({ command: e.commandName }, e.duration / 1000));
  metrics.gauge('store_ping_seconds', 'Round trip of a ping to each store at scrape time (absent: the store did not answer)', ['store'], async () => {
    const [database, cache] = await Promise.allSettled([db.ping(), redis.ping()]);
    const out: GaugeSample[] = [];
    if (database.status === 'fulfilled') out.push({ labels: { store: 'database' }, value: database.value / 1000 });
    if (cache.status === 'fulfilled') out.push({ labels: { store: 'redis' }, value: cache.value / 1000 });
    return out;
  });
}

/** The facts of a finished request, from its route options and the guards' results. */
export function requestFacts(req: FastifyRequest, reply: FastifyReply): RequestFacts {
  const config = req.routeOptions.config as { spec?: { id: string }; plugin?: string };
  const routeId = config.spec?.id ?? (req.routeOptions.url ? '(engine)' : '(unmatched)');
  return {
    routeId, plugin: config.plugin ?? null, method: req.method, status: reply.statusCode,
    seconds: reply.elapsedTime / 1000, plan: req.org?.org.plan ?? null, userId: req.principal?.userId ?? null,
  };
}

/**
 * GET /metrics in Prometheus' text format. With METRICS_TOKEN set, only `Authorization: Bearer
 * <METRICS_TOKEN>` reads it (401 otherwise); without it the route is open, for a scraper on a
 * private network.
 */
/** The error shape without its $id (a copy per status, as core/route-schemas.ts does). */
const { $id: _id, ...errorBody } = ErrorBody as typeof ErrorBody & { $id?: string };

export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined) {
  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  app.get('/metrics', {
    schema: {
      operationId: 'getMetrics', tags: ['health'], summary: 'Prometheus metrics (text format); Authorization: Bearer <METRICS_TOKEN> when that is set', produces: ['text/plain'],
      // Every status it answers (the status check after the tests holds engine routes to theirs too).
      response: {
        200: { description: 'The metrics', content: { 'text/plain': { schema: { type: 'string' } } } },
        401: { ...errorBody, description: 'METRICS_TOKEN is set and the request does not carry it (unauthorized)' },
        503: { ...errorBody, description: 'The server is shutting down (shutting_down)' },
      },
    } as never,
  }, async (req, reply) => {
    if (expected) {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unauthorized('A valid metrics token is required');
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
