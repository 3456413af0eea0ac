// What the engine hands every plugin: its shared parts, built once per app.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db.ts';
import type { RedisPair } from './redis.ts';
import type { CacheHub } from './cache.ts';
import type { Once } from './once.ts';
import type { Sealer } from './crypto.ts';
import type { EventBus } from './events.ts';
import type { Scheduler } from './scheduler.ts';
import type { Metrics } from './metrics.ts';
import type { Mailer } from './mail.ts';
import type { Audit } from './audit.ts';
import type { Tenancy } from './tenancy/index.ts';
import type { CredentialKind, CredentialReader } from './guards/principal.ts';
import type { RepositoryOf } from './guards/repositories.ts';
import type { Limits, Meter } from './limits.ts';
import type { LimitName } from './plans.ts';

export interface AppContext {
  config: Config;
  log: FastifyBaseLogger;
  db: Database;
  redis: RedisPair;
  caches: CacheHub;
  once: Once;
  sealer: Sealer;
  bus: EventBus;
  scheduler: Scheduler;
  /** Prometheus metrics: add a gauge read at scrape time (ctx.metrics.gauge), observe finished requests (core/metrics.ts). */
  metrics: Metrics;
  mail: Mailer;
  audit: Audit;
  tenancy: Tenancy;
  /** Plugins that own a credential register its reader here. */
  provideCredential(kind: CredentialKind, reader: CredentialReader): void;
  /** Every plugin that stores org data registers how to delete it (organization deletion). */
  onOrgDelete(fn: (orgId: string) => Promise<void>): void;
  /** Runs every plugin's organization-deletion hook (used by the orgs plugin). */
  deleteOrgData(orgId: string): Promise<void>;
  /**
   * Names a kind of record routes can hold CLI tokens to (manifest `repositories: {param,
   * record}`): how to find the repository config of one record of this kind.
   */
  defineRepositoryRecord(kind: string, repositoryOf: RepositoryOf): void;
  /**
   * The repository config id of a record of a defined kind, or null when the organization has
   * no such record: lets a plugin answer 404 for another plugin's record without needing it.
   */
  repositoryOf(kind: string, orgId: string, id: string): Promise<string | null>;
  /** Plan limits: usage of every limit (the quota route) and holds for creations outside a request (core/limits.ts). */
  limits: Limits;
  /**
   * How this plugin counts one plan limit: the routes of its manifest with `limit` are refused
   * by the engine at the limit, and the quota shows the sum of every plugin's count.
   */
  defineMeter(name: LimitName, meter: Meter): void;
}
