// Builds the Fastify instance: error handler first, then the engine's parts, then the
// plugins from their manifests (STYLE "Layout").
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import multipart from '@fastify/multipart';
import fastifyAuth from '@fastify/auth';
import fp from 'fastify-plugin';
import type { Config } from './config.ts';
import { checkOperatorPlugins } from './config.ts';
import { connectDatabase } from './db.ts';
import { connectRedis } from './redis.ts';
import { createCacheHub } from './cache.ts';
import { createOnce, ONCE_KEYS, ONCE_PURGE_JOB, onceKeepMs } from './once.ts';
import { createSealer } from './crypto.ts';
import { createEventBus } from './events.ts';
import { createScheduler, AGENDA_JOBS } from './scheduler.ts';
import { JOB_RUNS } from './job-states.ts';
import { createMailer } from './mail.ts';
import { createAudit } from './audit.ts';
import { createTenancy } from './tenancy/index.ts';
import { createLimits } from './limits.ts';
import { createRateLimiter } from './guards/rate-limit.ts';
import { createSigningGuard } from './guards/signing.ts';
import type { CredentialKind, CredentialReader } from './guards/principal.ts';
import { checkHandlers, discoverPlugins, orderPlugins, registerRoutes, validateManifests, type LoadedPlugin, type OpenApiFacts } from './loader.ts';
import type { RepositoryOf } from './guards/repositories.ts';
import { clientErrorHandler, errorHandler, frameworkErrorHandler, notFoundHandler, refuseWhileClosing } from './error-handler.ts';
import { createValidatorCompiler } from './validation.ts';
import { lazySerializers } from './schema-compile.ts';
import { checkJsonBody } from './input-rules.ts';
import { registerHealth } from './health.ts';
import { loggerOptions, requestId, requestLogging } from './logging.ts';
import { createMetrics, registerMetricsRoute, requestFacts, storeMetrics } from './metrics.ts';
import { openapiInfo, addOpenApiFacts } from './openapi.ts';
import type { AppContext } from './context.ts';
import type { AnyHandler } from './manifest.ts';
import type { BuiltPlugin, PluginServices } from './plugin.ts';

export interface BuildOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** Append every query's shape to this file (index check in tests). */
  queryLog?: string;
  /** Start Agenda's processing loop (off in most tests, which run jobs directly). */
  runJobs?: boolean;
  jobPollMs?: number;
  jobLockLifetimeMs?: number;
  /** Compile each route's validators and serializers on first use (the test suite; core/schema-compile.ts). */
  lazySchemas?: boolean;
}

export interface App {
  app: FastifyInstance;
  ctx: AppContext;
  plugins: LoadedPlugin[];
  /** The services the enabled plugins offer (tests and operator scripts). */
  services: Partial<PluginServices>;
}

/** The fastify-plugin name of the engine's part (the `ctx` decoration); every plugin depends on it. */
export const ENGINE = 'drift-engine';

/**
 * Fastify 5.12 ignores a numeric trustProxy (it fails closed: a client reaching the service
 * directly could write as many hops as it likes). TRUST_PROXY's hop count is a promise by the
 * operator that only the proxies reach the service, so it is given as the function proxy-addr
 * calls per hop: the socket's peer (hop 0) and the next `hops - 1` entries are proxies, the
 * entry before them is the client, whatever the client wrote further left.
 */
function trustProxyOption(tp: Config['TRUST_PROXY']): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof tp === 'number' ? (_address, hop) => hop < tp : tp;
}

export async function buildApp(opts: BuildOptions): Promise<App> {
  const { config } = opts;
  // The service's own logger (buffered, flushed at close) unless the caller brings one.
  const own = opts.logger === undefined ? loggerOptions(config) : undefined;
  const app = Fastify({
    logger: own ?? opts.logger,
    // One completion line per request (core/logging.ts) instead of Fastify's two; the request id
    // is the caller's x-request-id when plausible, else a UUID, and every line carries it.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    bodyLimit: config.BODY_LIMIT,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    routerOptions: { ignoreTrailingSlash: true },
    exposeHeadRoutes: false,
    // Every answer in the one error shape, including the ones Fastify and Node write themselves.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    return503OnClosing: false,
    ...(opts.lazySchemas ? { schemaController: { compilersFactory: { buildSerializer: lazySerializers } } } : {}),
  });
  requestLogging(app, own?.stream);
  refuseWhileClosing(app);
  app.setValidatorCompiler(createValidatorCompiler({ lazy: opts.lazySchemas }));
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  // Keep the raw JSON text: request signing hashes the body exactly as sent.
  app.addContentTypeParser(['application/json', 'application/scim+json'], { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    req.rawBody = text;
    if (text === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(Object.assign(new Error('Body is not valid JSON'), { statusCode: 400 }), undefined);
    }
    try {
      checkJsonBody(parsed);
    } catch (err) {
      return done(err as Error, undefined);
    }
    done(null, parsed);
  });
  await app.register(multipart, { limits: { fileSize: 2 * 1024 * 1024, files: 1, fields: 5 } });

  // The plugins' modules are imported (compiled, their types stripped) before any connection
  // opens: done after, that synchronous work held the event loop on a busy machine while the
  // database driver's sockets waited for 'connect' (5 s connectTimeoutMS). Imports are cached:
  // loadPlugins' own discovery below is then cheap.
  await discoverPlugins(config.operator);
  const db = await connectDatabase(config.MONGODB_URI, config.MONGODB_DB, {
    queryLog: opts.queryLog, postgresUrl: config.FERRETDB_POSTGRES_URL, log: (msg, details) => app.log.warn(details, msg),
  });
  const redis = await connectRedis(config.REDIS_URL, config.REDIS_KEY_PREFIX).catch(async (err) => {
    await db.close();
    throw err;
  });
  const caches = await createCacheHub(redis.main, redis.sub, `${config.REDIS_KEY_PREFIX}invalidate:${config.MONGODB_DB}`);
  const readers = new Map<CredentialKind, CredentialReader>();
  const records = new Map<string, RepositoryOf>();
  const orgDeleteHooks: ((orgId: string) => Promise<void>)[] = [];
  db.collection(ONCE_KEYS);
  db.collection(AGENDA_JOBS);
  db.collection(JOB_RUNS);
  const tenancy = createTenancy(db, caches);
  const ctx: AppContext = {
    config,
    log: app.log,
    db,
    redis,
    caches,
    once: createOnce(db, redis.main, app.log),
    sealer: createSealer(config.ENCRYPTION_KEY),
    bus: createEventBus(app.log),
    scheduler: createScheduler(db.db, { processEveryMs: opts.jobPollMs, lockLifetimeMs: opts.jobLockLifetimeMs }),
    metrics: createMetrics(app.log),
    mail: createMailer(config),
    audit: createAudit(db, redis.main, app.log),
    tenancy,
    limits: createLimits(redis.main, tenancy),
    // Each plugin's build gets its own, naming the plugin (loadPlugins).
    defineMeter: () => { throw new Error('ctx.defineMeter is for plugin builds'); },
    provideCredential: (kind, reader) => { readers.set(kind, reader); },
    onOrgDelete: (fn) => { orgDeleteHooks.push(fn); },
    deleteOrgData: async (orgId) => { for (const fn of orgDeleteHooks) await fn(orgId); },
    defineRepositoryRecord: (kind, repositoryOf) => {
      if (records.has(kind)) throw new Error(`repository record "${kind}" is defined twice`);
      records.set(kind, repositoryOf);
    },
    repositoryOf: async (kind, orgId, id) => {
      const find = records.get(kind);
      if (!find) throw new Error(`no plugin defines repository record "${kind}"`);
      return find(orgId, id);
    },
  };
  // The engine's decoration is a named fastify-plugin, so each plugin's registration can declare it.
  await app.register(fp(async (instance) => { instance.decorate('ctx', ctx); }, { name: ENGINE, fastify: '5.x' }));
  await app.register(fastifyAuth);
  const instances = new Map<string, BuiltPlugin>();
  // Registered before anything else can fail, so a failed boot still closes its connections.
  app.addHook('onClose', async () => {
    await ctx.scheduler.stop();
    for (const i of [...instances.values()].reverse()) await i.stop?.();
    await ctx.audit.flush();
    ctx.audit.stop();
    ctx.mail.close();
    await caches.close();
    await redis.close();
    await db.close();
  });

  try {
    return await loadPlugins(app, ctx, readers, records, instances, opts);
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
}

async function loadPlugins(
  app: FastifyInstance, ctx: AppContext, readers: Map<CredentialKind, CredentialReader>, records: Map<string, RepositoryOf>,
  instances: Map<string, BuiltPlugin>, opts: BuildOptions,
): Promise<App> {
  const { config, db, redis } = ctx;

  const plugins = await discoverPlugins(config.operator);
  checkOperatorPlugins(config.operator, plugins.map((p) => p.manifest.plugin));
  validateManifests(plugins.filter((p) => p.enabled));
  const ordered = orderPlugins(plugins);

  const facts = new Map<string, OpenApiFacts>();
  await app.register(swagger, {
    openapi: openapiInfo(config) as never,
    transformObject: (doc) => addOpenApiFacts(doc as never, facts),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const deps = { auth: app.auth.bind(app), readers, records, tenancy: ctx.tenancy, limits: ctx.limits, rateLimit: createRateLimiter(redis.main, app.log), verifySignature: createSigningGuard(ctx.once) };
  const services: Record<string, unknown> = {};
  for (const p of ordered) {
    const { definition } = p;
    const name = p.manifest.plugin;
    // Each build sees only what it declared: its needs, and its uses that are enabled.
    const own = Object.fromEntries([...definition.needs, ...(definition.uses ?? [])].filter((d) => services[d] !== undefined).map((d) => [d, services[d]]));
    // fastify-plugin: the name and dependencies Fastify itself checks at registration.
    await app.register(fp(async () => {
      // The plugin's own view of the engine: the meters it defines are its own (core/limits.ts).
      const pluginCtx: AppContext = { ...ctx, defineMeter: (limit, meter) => ctx.limits.define(name, limit, meter) };
      const built = await definition.build(pluginCtx, own);
      instances.set(name, built);
      if (built.provides !== undefined) services[name] = built.provides;
    }, { name, fastify: '5.x', dependencies: [ENGINE, ...Object.keys(own)] }));
  }
  // Routes after every build (a repository record kind may be defined by a later plugin), in
  // name order, so the OpenAPI document does not depend on the build order.
  const recordKinds = new Set(records.keys());
  for (const p of plugins.filter((x) => x.enabled)) {
    const handlers = instances.get(p.manifest.plugin)!.handlers as Record<string, AnyHandler>;
    checkHandlers(p.manifest, handlers, recordKinds, ctx.limits);
    registerRoutes(app, p, handlers, deps, facts);
  }
  registerHealth(app, db, redis);
  storeMetrics(ctx.metrics, db, redis);
  ctx.metrics.gauge('jobs_queue_depth', 'Agenda jobs due and not yet taken, by job name', ['job'], async () =>
    (await ctx.scheduler.queueDepth()).map((q) => ({ labels: { job: q.name }, value: q.due })));
  registerMetricsRoute(app, ctx.metrics, config.METRICS_TOKEN);

  app.addHook('onResponse', (req, reply, done) => {
    const spec = req.routeOptions.config.spec;
    if (spec && spec.audit !== false) ctx.audit.record(req, reply, spec);
    ctx.metrics.record(requestFacts(req, reply));
    done();
  });

  // Exactly-once keys would otherwise pile up (a scheduled scan alone leaves one a tick).
  ctx.scheduler.define(ONCE_PURGE_JOB, async () => {
    const deleted = await ctx.once.purgeBefore(new Date(Date.now() - onceKeepMs(config)));
    if (deleted) app.log.info({ deleted }, 'exactly-once keys past their use deleted');
  });

  await db.ensureIndexes();
  const gin = db.ginIndexes();
  if (gin?.error) app.log.warn({ error: gin.error }, 'FerretDB GIN indexes not created (FERRETDB_POSTGRES_URL): equality reads scan their collections');
  else if (gin?.created.length) app.log.info({ created: gin.created.length, existing: gin.existing }, 'FerretDB GIN indexes created');
  for (const i of instances.values()) await i.start?.();
  if (opts.runJobs) {
    await ctx.scheduler.every('1 hour', ONCE_PURGE_JOB, {});
    await ctx.scheduler.start();
  }

  return { app, ctx, plugins, services: services as Partial<PluginServices> };
}

declare module 'fastify' {
  interface FastifyInstance { ctx: AppContext }
}
