// Typed configuration, checked once at boot. A bad or missing value stops the process with
// a message naming the variable (STYLE: configuration checked against a schema at boot).
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { PLANS, type Plan } from './plans.ts';
import { closest } from './text.ts';
import { ConfigError } from './config-error.ts';
import { parseAllowList } from './net-guard.ts';
import { parseTrustProxy } from './trust-proxy.ts';

const Env = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], { default: 'development' }),
  HOST: Type.String({ default: '0.0.0.0' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  FRONTEND_URL: Type.String({ pattern: '^https?://', default: 'http://localhost:5173' }),
  MONGODB_URI: Type.String({ pattern: '^mongodb(\\+srv)?://' }),
  MONGODB_DB: Type.String({ minLength: 1, default: 'drift' }),
  /** The embedded FerretDB's PostgreSQL URL: GIN indexes for its equality reads (core/ferret-gin.ts). Unset: none. */
  FERRETDB_POSTGRES_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  REDIS_URL: Type.String({ pattern: '^rediss?://' }),
  REDIS_KEY_PREFIX: Type.String({ default: 'drift:' }),
  JWT_SECRET: Type.String({ minLength: 32 }),
  ENCRYPTION_KEY: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
  SERVICE_KEY: Type.Optional(Type.String({ minLength: 24 })),
  ACCESS_TOKEN_TTL: Type.Integer({ minimum: 60, default: 900 }),
  REFRESH_TOKEN_TTL: Type.Integer({ minimum: 300, default: 30 * 24 * 3600 }),
  DOWNLOAD_TOKEN_TTL: Type.Integer({ minimum: 10, default: 60 }),
  DELETION_GRACE_DAYS: Type.Integer({ minimum: 0, default: 14 }),
  RUNNER_OFFLINE_AFTER: Type.Integer({ minimum: 10, default: 90 }),
  SCAN_TIMEOUT_MINUTES: Type.Number({ exclusiveMinimum: 0, default: 60 }),
  EXECUTOR_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 20, default: 2 }),
  EXECUTOR_LOCAL_SOURCES: Type.Boolean({ default: false }),
  /**
   * Whether the built-in executor runs tofu/terraform refresh-only plans for what no native reader
   * compares. Off: a plan evaluates the customer's data sources on the service host.
   */
  EXECUTOR_PROVIDER_PLANS: Type.Boolean({ default: false }),
  /** Whether a configuration planned on the built-in executor may declare `data "external"` and provisioners (programs). */
  EXECUTOR_PLAN_PROGRAMS: Type.Boolean({ default: false }),
  /**
   * Host names, addresses and CIDRs (comma-separated) the built-in executor may clone from
   * although they are not public (internal git hosts), over https or http (core/net-guard.ts).
   */
  EXECUTOR_ALLOWED_HOSTS: Type.String({ default: '' }),
  // Guardrail plan evaluation runs in worker threads with a time limit (docs/guardrails.md).
  GUARDRAIL_WORKERS: Type.Integer({ minimum: 1, maximum: 16, default: 2 }),
  GUARDRAIL_EVALUATION_TIMEOUT_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 5000 }),
  DRIFT_CLOUD_A_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+' })),
  DRIFT_CLOUD_B_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+' })),
  DRIFT_CLOUD_C_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+' })),
  DRIFT_CLOUD_CA_FILE: Type.Optional(Type.String({ minLength: 1 })),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ default: 'Drift <no-reply@drift.local>' }),
  MAIL_OUTBOX_DIR: Type.String({ default: '.data/outbox' }),
  DRIFT_CONFIG: Type.String({ default: 'drift.config.json' }),
  BODY_LIMIT: Type.Integer({ minimum: 1024, default: 1024 * 1024 }),
  LOG_LEVEL: Type.Union([Type.Literal('fatal'), Type.Literal('error'), Type.Literal('warn'), Type.Literal('info'), Type.Literal('debug'), Type.Literal('trace'), Type.Literal('silent')], { default: 'info' }),
  /**
   * Which X-Forwarded-For entries are believed (Fastify's trustProxy): false, a hop count (the
   * proxies in front), or the proxies' addresses/CIDRs. Never `true`: that trusts whatever the
   * client writes left-most (parseTrustProxy).
   */
  TRUST_PROXY: Type.Union([Type.Literal(false), Type.Integer({ minimum: 1, maximum: 64 }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })], { default: false }),
  /**
   * DNS servers (comma-separated `host` or `host:port`) that SSO domain verification asks for
   * its TXT records (plugins/sso-scim/domains.ts); empty: the system's resolvers.
   */
  DNS_SERVERS: Type.String({ default: '' }),
  /** Set: GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  /** Longest a graceful shutdown may take (requests in flight, jobs, stores) before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 1000, default: 15000 }),
  // Billing (plugins/billing, docs/billing.md). Without STRIPE_SECRET_KEY the service runs and
  // checkout, portal and verify answer 503; the webhook needs only STRIPE_WEBHOOK_SECRET.
  STRIPE_SECRET_KEY: Type.Optional(Type.String({ pattern: '^(sk|rk)_' })),
  STRIPE_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 8 })),
  STRIPE_PRICE_PRO: Type.Optional(Type.String({ minLength: 1 })),
  STRIPE_PRICE_TEAM: Type.Optional(Type.String({ minLength: 1 })),
  STRIPE_PRICE_ENTERPRISE: Type.Optional(Type.String({ minLength: 1 })),
  /** Where the Stripe client sends its calls (tests: stripe-mock); default Stripe's own API. */
  STRIPE_API_BASE: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+' })),
  // Integrations (plugins/webhooks, tracker, ai-providers; docs/integrations.md).
  /** Host names (exact), addresses and CIDRs (comma-separated) the SSRF guard lets webhooks and chat reach although not public. */
  WEBHOOK_ALLOWED_HOSTS: Type.String({ default: '' }),
  /** A PEM file of extra CA certificates trusted for outbound HTTPS (tests: a self-signed receiver). */
  OUTBOUND_EXTRA_CA_FILE: Type.Optional(Type.String({ minLength: 1 })),
  /** Seconds before each retry of a failed delivery (SPEC: 1 min, 5 min, 30 min, 2 h). */
  WEBHOOK_RETRY_SECONDS: Type.String({ pattern: '^\\d+(,\\d+)*$', default: '60,300,1800,7200' }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10_000 }),
  /** Days ended deliveries (delivered, failed) and attempt keys are kept before the purge deletes them. */
  WEBHOOK_RETENTION_DAYS: Type.Integer({ minimum: 1, default: 30 }),
  /** Whether this process sends due deliveries (a separate worker process may do it instead). */
  WEBHOOK_WORKER: Type.Boolean({ default: true }),
  TRACKER_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  TRACKER_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  TRACKER_AUTH_URL: Type.String({ pattern: '^https?://[^\\s/]+', default: 'https://auth.atlassian.com' }),
  TRACKER_API_URL: Type.String({ pattern: '^https?://[^\\s/]+', default: 'https://api.atlassian.com' }),
  AI_PROVIDER_A_URL: Type.String({ pattern: '^https?://[^\\s/]+', default: 'https://api.openai.com' }),
  AI_PROVIDER_B_URL: Type.String({ pattern: '^https?://[^\\s/]+', default: 'https://api.anthropic.com' }),
  /** Source host (GitHub-compatible, docs/scm.md): the OAuth app signs users in; without it /api/auth/scm answers 503. */
  SCM_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  SCM_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  /** Authorize and token endpoints (login/oauth/...); GitHub Enterprise Server: https://<host>. */
  SCM_WEB_URL: Type.String({ pattern: '^https?://[^\\s/]+', default: 'https://github.com' }),
  /** REST API base; GitHub Enterprise Server: https://<host>/api/v3. */
  SCM_API_URL: Type.String({ pattern: '^https?://[^\\s/]+', default: 'https://api.github.com' }),
  /** The source host app (installations, repositories, pull requests); without it /api/auth/scm-app/install answers 503. */
  SCM_APP_ID: Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
  SCM_APP_SLUG: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]+$' })),
  /** The app's private key: PEM text, or the path of a PEM file. */
  SCM_APP_PRIVATE_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * The app's own OAuth client (a GitHub App has one): exchanges the code the host sends to the
   * app's callback when "Request user authorization (OAuth) during installation" is on, so the
   * installing user's installations can be listed. Default: SCM_CLIENT_ID / SCM_CLIENT_SECRET
   * (one GitHub App serving sign-in too).
   */
  SCM_APP_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  SCM_APP_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
});
export type EnvConfig = Static<typeof Env>;

const PluginSetting = Type.Object({
  enabled: Type.Boolean({ default: true }),
  plan: Type.Optional(Type.Union(PLANS.map((p) => Type.Literal(p)))),
}, { additionalProperties: false });
const OperatorFile = Type.Object({
  plugins: Type.Record(Type.String(), PluginSetting, { default: {} }),
}, { additionalProperties: false });
export type OperatorConfig = { plugins: Record<string, { enabled: boolean; plan?: Plan }> };

export interface Config extends EnvConfig {
  publicUrl: string;
  operator: OperatorConfig;
}

export { ConfigError };

/** The JSON type a variable's schema declares: how its string from the environment is read. */
const typeOf = (key: string) => (Env.properties as Record<string, { type?: string }>)[key]?.type;

/** Reads the environment (strings) into the typed config; throws ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<EnvConfig> = {}): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(Env.properties)) {
    const value = env[key];
    if (value === undefined || value === '') continue;
    if (key === 'TRUST_PROXY') { raw[key] = parseTrustProxy(value); continue; }
    const type = typeOf(key);
    if (type === 'integer' || type === 'number') raw[key] = /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
    else if (type === 'boolean') raw[key] = value === 'true' || value === '1';
    else raw[key] = value;
  }
  Object.assign(raw, overrides);
  if (raw.TRUST_PROXY === true) parseTrustProxy('true');
  if (raw.TRUST_PROXY === 0) raw.TRUST_PROXY = false;
  const withDefaults = Value.Default(Env, raw) as Record<string, unknown>;
  const errors = [...Value.Errors(Env, withDefaults)];
  if (errors.length) {
    const first = errors[0];
    const name = first.instancePath.replace(/^\//, '') || String((first.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? '');
    const shown = name && withDefaults[name] === undefined ? 'is missing' : `is invalid (${first.message})`;
    throw new ConfigError(`Configuration error: ${name} ${shown}`);
  }
  const cfg = withDefaults as EnvConfig;
  for (const key of ['WEBHOOK_ALLOWED_HOSTS', 'EXECUTOR_ALLOWED_HOSTS'] as const) {
    try { parseAllowList(cfg[key]); } catch (e) { throw new ConfigError(`Configuration error: ${key} is invalid (${(e as Error).message})`); }
  }
  for (const key of ['SCM_WEB_URL', 'SCM_API_URL'] as const) {
    // Plain http only for loopback hosts (tests against local fakes): a token never crosses a network unencrypted.
    const url = new URL(cfg[key]);
    if (url.protocol === 'http:' && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
      throw new ConfigError(`Configuration error: ${key} must be https:// (http:// only for a loopback host)`);
    }
  }
  return {
    ...cfg,
    publicUrl: (cfg.PUBLIC_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/$/, ''),
    ...Object.fromEntries((['DRIFT_CLOUD_A_ENDPOINT', 'DRIFT_CLOUD_B_ENDPOINT', 'DRIFT_CLOUD_C_ENDPOINT'] as const)
      .filter((k) => cfg[k]).map((k) => [k, cfg[k]!.replace(/\/+$/, '')])),
    operator: loadOperatorConfig(cfg.DRIFT_CONFIG),
  };
}

/** The operator file enables plugins and sets their plan tier; absent means all enabled, manifest tiers. */
export function loadOperatorConfig(path: string): OperatorConfig {
  const file = resolve(path);
  if (!existsSync(file)) return { plugins: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`Configuration error: DRIFT_CONFIG file ${file} is not valid JSON (${(err as Error).message})`);
  }
  const withDefaults = Value.Default(OperatorFile, parsed);
  const errors = [...Value.Errors(OperatorFile, withDefaults)];
  if (errors.length) {
    const e = errors[0];
    throw new ConfigError(`Configuration error: DRIFT_CONFIG file ${file} at ${e.instancePath || '/'} ${e.message}`);
  }
  return withDefaults as OperatorConfig;
}

/** Checks the operator file names only plugins that exist, with a hint for typos. */
export function checkOperatorPlugins(operator: OperatorConfig, known: string[]): void {
  for (const name of Object.keys(operator.plugins)) {
    if (!known.includes(name)) {
      const hint = closest(name, known);
      throw new ConfigError(`Configuration error: DRIFT_CONFIG names unknown plugin "${name}"${hint ? `; did you mean "${hint}"?` : ''}`);
    }
  }
}
