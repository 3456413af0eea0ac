// Manifests -> routes. Discovers manifests/<plugin>.ts and plugins/<plugin>/index.ts, orders
// the plugins by what they declare they need, checks every entry before the server listens
// (duplicate ids or paths, unknown scopes, permissions, plans, limits, handlers, repository
// records, each with a "did you mean"), then registers each enabled route with its schemas,
// guard chain and OpenAPI facts.
import { readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AUTH_KINDS, type AnyHandler, type ErrorFormat, type Manifest, type RouteSpec } from './manifest.ts';
import { CLI_SCOPES, PERMISSIONS } from './permissions.ts';
import { LIMIT_NAMES, PLANS, planRank, type Plan } from './plans.ts';
import type { Limits } from './limits.ts';
import { RATE_LIMIT_NAMES } from './guards/rate-limit.ts';
import { buildGuards, inputOf, needsOrgContext, type GuardDeps } from './guards/chain.ts';
import { resumer } from './guards/body-gates.ts';
import { errorStatuses } from './openapi-errors.ts';
import { closest } from './text.ts';
import { ERRORS } from './errors.ts';
import { answerPrefixIn, notFoundHandlerIn } from './error-handler.ts';
import { closeSchema } from './input-rules.ts';
import { definedOnly, responseSchemas, securityFor } from './route-schemas.ts';
import type { OperatorConfig } from './config.ts';
import type { LoadedDefinition } from './plugin.ts';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export class ManifestError extends Error {}

export interface LoadedPlugin {
  manifest: Manifest;
  enabled: boolean;
  plan: Plan | undefined;
  definition: LoadedDefinition;
}

/** Every manifest in manifests/ (names sorted), with its plugin definition and the operator's setting. */
export async function discoverPlugins(operator: OperatorConfig, root = ROOT): Promise<LoadedPlugin[]> {
  const files = readdirSync(join(root, 'manifests')).filter((f) => f.endsWith('.ts')).sort();
  const plugins: LoadedPlugin[] = [];
  for (const file of files) {
    const manifest = (await import(pathToFileURL(join(root, 'manifests', file)).href)).default as Manifest;
    const name = file.replace(/\.ts$/, '');
    if (manifest?.plugin !== name) throw new ManifestError(`manifests/${file}: plugin name "${manifest?.plugin}" must match the file name "${name}"`);
    let definition: LoadedDefinition;
    try {
      definition = (await import(pathToFileURL(join(root, 'plugins', name, 'index.ts')).href)).default;
    } catch (err) {
      throw new ManifestError(`manifests/${file}: cannot load plugins/${name}/index.ts (${(err as Error).message})`);
    }
    if (definition?.manifest?.plugin !== name || typeof definition.build !== 'function') {
      throw new ManifestError(`plugins/${name}/index.ts: its default export must be definePlugin({manifest, needs, build}) with the manifest of manifests/${file}`);
    }
    const setting = operator.plugins[name];
    if (manifest.required && setting?.enabled === false) throw new ManifestError(`DRIFT_CONFIG: plugin "${name}" is required and cannot be disabled`);
    plugins.push({ manifest, definition, enabled: setting?.enabled ?? true, plan: setting?.plan ?? manifest.plan });
  }
  return plugins;
}

/**
 * The enabled plugins in an order where each comes after every plugin it needs or uses
 * (ties keep the name order). Refuses, naming the plugin, a need that does not exist or is
 * disabled, and a circle of needs.
 */
export function orderPlugins(plugins: LoadedPlugin[]): LoadedPlugin[] {
  const byName = new Map(plugins.map((p) => [p.manifest.plugin, p]));
  const enabled = plugins.filter((p) => p.enabled);
  for (const p of enabled) {
    const name = p.manifest.plugin;
    for (const dep of [...p.definition.needs, ...(p.definition.uses ?? [])]) {
      if (byName.has(dep)) continue;
      const hint = closest(dep, [...byName.keys()]);
      throw new ManifestError(`plugins/${name}: needs plugin "${dep}", which does not exist${hint ? `; did you mean "${hint}"?` : ''}`);
    }
    for (const dep of p.definition.needs) {
      if (!byName.get(dep)!.enabled) {
        throw new ManifestError(`plugins/${name}: needs plugin "${dep}", which is disabled in DRIFT_CONFIG; enable "${dep}" or disable "${name}"`);
      }
    }
  }
  const order: LoadedPlugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: LoadedPlugin, path: string[]) => {
    const name = p.manifest.plugin;
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new ManifestError(`plugins: a circle of needs: ${[...path.slice(path.indexOf(name)), name].join(' -> ')}`);
    state.set(name, 'visiting');
    for (const dep of [...p.definition.needs, ...(p.definition.uses ?? [])]) {
      const d = byName.get(dep)!;
      if (d.enabled) visit(d, [...path, name]);
    }
    state.set(name, 'done');
    order.push(p);
  };
  for (const p of enabled) visit(p, []);
  return order;
}

/** The plan a route needs: the higher of its plugin's tier and its own. */
export function routePlan(plugin: LoadedPlugin, route: RouteSpec): Plan | undefined {
  const tiers = [plugin.plan, route.plan].filter(Boolean) as Plan[];
  return tiers.sort((a, b) => planRank(b) - planRank(a))[0];
}

export const fullUrl = (m: Manifest, r: RouteSpec) => (m.prefix + r.url).replace(/(.)\/$/, '$1');

export function validateManifests(plugins: LoadedPlugin[]): void {
  const ids = new Map<string, string>();
  const paths = new Map<string, string>();
  for (const { manifest: m } of plugins) {
    const where = (r: RouteSpec) => `manifests/${m.plugin}.ts route "${r.id}"`;
    const check = <T extends string>(value: T | undefined, allowed: readonly string[], what: string, r: RouteSpec) => {
      if (value === undefined || allowed.includes(value)) return;
      const hint = closest(value, allowed);
      throw new ManifestError(`${where(r)}: unknown ${what} "${value}"${hint ? `; did you mean "${hint}"?` : ''}`);
    };
    for (const r of m.routes) {
      if (ids.has(r.id)) throw new ManifestError(`${where(r)}: duplicate id (also in ${ids.get(r.id)})`);
      ids.set(r.id, `manifests/${m.plugin}.ts`);
      const key = `${r.method} ${fullUrl(m, r).replace(/:[^/]+/g, ':')}`;
      if (paths.has(key)) throw new ManifestError(`${where(r)}: duplicate path ${r.method} ${fullUrl(m, r)} (also ${paths.get(key)})`);
      paths.set(key, where(r));
      check(r.auth, AUTH_KINDS, 'auth kind', r);
      // A JWT in a URL only where a browser navigates to start a flow: never on a write.
      if (r.auth === 'user-redirect' && r.method !== 'GET') throw new ManifestError(`${where(r)}: auth "user-redirect" is for GET routes that start a browser redirect flow`);
      check(r.scope, CLI_SCOPES, 'scope', r);
      check(r.permission, PERMISSIONS, 'permission', r);
      check(r.plan, PLANS, 'plan', r);
      check(r.rateLimit, RATE_LIMIT_NAMES, 'rate limit', r);
      check(r.limit, LIMIT_NAMES, 'plan limit', r);
      const rule = r.repositories;
      if (typeof rule === 'object' && 'param' in rule && !new RegExp(`/:${rule.param}(/|$)`).test(r.url)) {
        throw new ManifestError(`${where(r)}: repositories names param "${rule.param}", which is not in the path ${r.url}`);
      }
      if (typeof rule === 'object' && 'body' in rule && !(r.body && rule.body in ((r.body as { properties?: object }).properties ?? {}))) {
        throw new ManifestError(`${where(r)}: repositories names body field "${rule.body}", which its body schema does not have`);
      }
      for (const gate of r.gates ?? []) {
        check(gate.permission, PERMISSIONS, 'permission', r);
        check(gate.scope, CLI_SCOPES, 'scope', r);
        if (!(r.body && gate.body.field in ((r.body as { properties?: object }).properties ?? {}))) {
          throw new ManifestError(`${where(r)}: a gate names body field "${gate.body.field}", which its body schema does not have`);
        }
      }
      // Resuming a flow is a callback's way to prove its user: a route with a caller has guards.
      if (r.resumes && r.auth !== 'none') throw new ManifestError(`${where(r)}: resumes is for callbacks (auth "none"); a route with a caller declares permission`);
      check(r.resumes?.permission, PERMISSIONS, 'permission', r);
      for (const code of r.raises ?? []) check(code, Object.keys(ERRORS), 'error code in raises', r);
      if (!Object.keys(r.response).some((s) => Number(s) < 400)) throw new ManifestError(`${where(r)}: no success response declared`);
    }
  }
}

/**
 * A built plugin's handlers cover its manifest's names, every repository record kind is
 * defined, and the plugin counts every plan limit its routes name.
 */
export function checkHandlers(m: Manifest, handlers: Record<string, unknown>, records: ReadonlySet<string>, limits?: Pick<Limits, 'has'>): void {
  for (const r of m.routes) {
    const where = `manifests/${m.plugin}.ts route "${r.id}"`;
    if (typeof handlers[r.handler] !== 'function') {
      const hint = closest(r.handler, Object.keys(handlers));
      throw new ManifestError(`${where}: unknown handler "${r.handler}"${hint ? `; did you mean "${hint}"?` : ''}`);
    }
    const rule = r.repositories;
    if (typeof rule === 'object' && 'record' in rule && !records.has(rule.record)) {
      const hint = closest(rule.record, [...records]);
      throw new ManifestError(`${where}: repositories names record "${rule.record}", which no enabled plugin defines${hint ? `; did you mean "${hint}"?` : ''}`);
    }
    if (r.limit && limits && !limits.has(m.plugin, r.limit)) {
      throw new ManifestError(`${where}: limit "${r.limit}" is not counted by plugins/${m.plugin}; define its meter with ctx.defineMeter('${r.limit}', ...) in build`);
    }
  }
}

export interface OpenApiFacts { cli: boolean; scopes: string[]; permission?: string; plan?: Plan; rateLimit?: string; limit?: string; audit?: string | false; repositories?: string; gates?: string[]; resumes?: string; auth: string; orgHeader: boolean }

/** What the audit extension says of a route: its curated action, false, or nothing (derived). */
const auditFact = (audit: RouteSpec['audit']) => (typeof audit === 'object' ? audit.action : audit);
/** The x-gates extension: `field=value: permission (scope)` per gate. */
export const gatesFact = (gates: NonNullable<RouteSpec['gates']>) =>
  gates.map((g) => `${g.body.field}=${g.body.equals}: ${g.permission}${g.scope ? ` (${g.scope})` : ''}`);
/** The x-repositories extension of a route's repository rule. */
export const repositoriesFact = (rule: RouteSpec['repositories']) =>
  (typeof rule !== 'object' ? rule : 'body' in rule ? `body:${rule.body}` : `record:${rule.record}:${rule.param}`);

export function registerRoutes(app: FastifyInstance, plugin: LoadedPlugin, handlers: Record<string, AnyHandler>, deps: GuardDeps, facts: Map<string, OpenApiFacts>): void {
  const m = plugin.manifest;
  if (m.unmatched) {
    // Fastify's own scoping: a not-found handler set inside a prefixed context answers for that prefix.
    const { under, errorFormat } = m.unmatched;
    app.register(async (scope) => { scope.setNotFoundHandler(notFoundHandlerIn(errorFormat)); }, { prefix: `${m.prefix}${under}` });
    answerPrefixIn(`${m.prefix}${under}`, errorFormat);
  }
  for (const route of m.routes) {
    const style = route.reply ?? m.reply;
    const plan = routePlan(plugin, route);
    const guards = buildGuards(route, plan, deps, m.plugin);
    const successCode = Number(Object.keys(route.response).find((s) => Number(s) < 400));
    const handler = handlers[route.handler];
    const resumed = resumer(route.resumes?.permission, (orgId, userId) => deps.tenancy.access(orgId, userId));
    facts.set(route.id, { cli: Boolean(route.scope || route.cliAllowed) && (route.auth === 'bearer' || route.auth === 'download'), scopes: route.scope ? [route.scope] : [], permission: route.ownerOnly ? 'owner' : route.permission, plan, rateLimit: route.rateLimit, limit: route.limit, audit: auditFact(route.audit), repositories: repositoriesFact(route.repositories), gates: route.gates && gatesFact(route.gates), resumes: route.resumes?.permission, auth: route.auth, orgHeader: needsOrgContext(route, plan) && !route.orgParam });

    // A route verifying a signature over the body as sent gets it unparsed, whatever its type.
    const errorFormat = route.errorFormat ?? m.errorFormat;
    const register = route.rawBody ? registerRaw(app) : (o: RouteOptions) => { app.route(o); };
    register({
      method: route.method,
      url: fullUrl(m, route),
      config: { spec: route, errorFormat, plugin: m.plugin },
      ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
      schema: definedOnly({
        operationId: route.id,
        tags: [m.plugin],
        summary: route.summary,
        params: route.params && closeSchema(route.params, `${route.id} params`, true),
        querystring: route.query && closeSchema(route.query, `${route.id} query`, true),
        body: route.body && closeSchema(route.body, `${route.id} body`, false),
        consumes: route.consumes,
        security: route.auth === 'none' ? [] : securityFor(route.auth),
        response: responseSchemas(route, style, errorStatuses(m, route, plan, needsOrgContext(route, plan)), errorFormat),
      }),
      onRequest: guards.onRequest,
      preValidation: guards.preValidation,
      preHandler: guards.preHandler,
      async handler(req, reply) {
        // A plan limit's hold (core/guards/chain.ts) is kept when the handler created the record, given back when it failed.
        const hold = req.limitHold;
        let result;
        try {
          result = await handler(inputOf(req, reply, resumed));
        } catch (err) {
          await hold?.abort();
          throw err;
        }
        await hold?.commit();
        req.routeResult = result;
        // A redirect named by the result ({redirect, audit?}): sent here, once the audit rule can read the result.
        if (!reply.sent && successCode >= 300 && successCode < 400 && typeof (result as { redirect?: unknown })?.redirect === 'string') {
          return reply.redirect((result as { redirect: string }).redirect, successCode);
        }
        if (reply.sent || style === 'raw') return reply;
        if (successCode === 204) return reply.code(204).send();
        if (errorFormat === 'scim') reply.type('application/scim+json');
        return reply.code(successCode).send(style === 'envelope' ? { success: true, data: result ?? null } : result);
      },
    });
  }
}


/**
 * Registers a route in its own context whose one content-type parser keeps the body as text
 * (req.rawBody and req.body): a malformed or unexpected body reaches the handler, which
 * answers it (a webhook's "Invalid signature"), instead of the JSON parser's 400 or a 415.
 */
const registerRaw = (app: FastifyInstance) => (options: RouteOptions) => {
  app.register(async (child) => {
    child.removeAllContentTypeParsers();
    child.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
      req.rawBody = body as string;
      done(null, body);
    });
    child.route(options);
  });
};

declare module 'fastify' {
  interface FastifyContextConfig { spec?: RouteSpec; errorFormat?: ErrorFormat; plugin?: string }
  interface FastifyRequest {
    /** What the handler returned (the audit rule reads it). */
    routeResult?: unknown;
  }
}
