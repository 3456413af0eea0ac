// The OpenAPI document from the manifests alone: the same routes, schemas, guards' facts and
// extensions the running service serves at /docs/json, without connecting to MongoDB or
// Redis and without building any plugin (`npm run openapi`, integrators' tooling).
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import multipart from '@fastify/multipart';
import fastifyAuth from '@fastify/auth';
import type { Config } from './config.ts';
import { discoverPlugins, registerRoutes, validateManifests, type OpenApiFacts } from './loader.ts';
import { createValidatorCompiler } from './validation.ts';
import { registerHealth } from './health.ts';
import { registerMetricsRoute } from './metrics.ts';
import { addOpenApiFacts, openapiInfo } from './openapi.ts';
import type { GuardDeps } from './guards/chain.ts';
import type { Database } from './db.ts';
import type { RedisPair } from './redis.ts';

const NOT_SERVED = () => { throw new Error('the API document app serves no requests'); };

/** Every plugin's operations, as if every plugin were enabled. */
export async function buildApiDocument(config: Config): Promise<Record<string, unknown>> {
  const app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true }, exposeHeadRoutes: false });
  try {
    app.setValidatorCompiler(createValidatorCompiler());
    await app.register(multipart);
    await app.register(fastifyAuth);
    const plugins = await discoverPlugins({ plugins: {} });
    validateManifests(plugins);
    const facts = new Map<string, OpenApiFacts>();
    await app.register(swagger, {
      openapi: openapiInfo(config) as never,
      transformObject: (doc) => addOpenApiFacts(doc as never, facts),
    });
    // Guards are built (their facts go into the document) but never run.
    const deps: GuardDeps = {
      auth: app.auth.bind(app), readers: new Map(), records: new Map(),
      tenancy: undefined as never, limits: undefined as never, rateLimit: NOT_SERVED, verifySignature: NOT_SERVED,
    };
    for (const p of plugins) {
      const handlers = Object.fromEntries(p.manifest.routes.map((r) => [r.handler, NOT_SERVED]));
      registerRoutes(app, p, handlers, deps, facts);
    }
    registerHealth(app, undefined as unknown as Database, undefined as unknown as RedisPair);
    registerMetricsRoute(app, undefined as never, undefined);
    await app.ready();
    return structuredClone(app.swagger()) as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
