// TEMPORARY (removed when every plugin is converted): runs a plugin still written as
// definePlugin((ctx) => ({handlers})) with ctx.services, next to converted ones.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './context.ts';
import type { Manifest, RouteInput } from './manifest.ts';
import type { BuiltPlugin, LoadedDefinition } from './plugin.ts';

type LegacyHandler = (req: FastifyRequest, reply: FastifyReply) => unknown;
type LegacyInstance = { handlers: Record<string, LegacyHandler>; start?(): Promise<void>; stop?(): Promise<void> };
export type PluginFactory = (ctx: AppContext & { services: Record<string, unknown> }) => LegacyInstance | Promise<LegacyInstance>;
/** @deprecated */
export const definePlugin = (factory: PluginFactory) => factory;

/** One services bag per app, shared by its legacy plugins. */
const bags = new WeakMap<object, Record<string, unknown>>();
const bagOf = (ctx: object) => {
  let bag = bags.get(ctx);
  if (!bag) bags.set(ctx, (bag = {}));
  return bag;
};

/** What a converted plugin provides, as legacy plugins looked it up, and back. */
const TO_LEGACY: Record<string, (provides: any) => Record<string, unknown>> = {
  auth: (p) => ({ accounts: p.accounts, userDirectory: p.userDirectory, registerMeter: p.registerMeter }),
  orgs: (p) => ({ organizations: p }),
  'audit-logs': (p) => ({ auditRetention: p }),
  credentials: (p) => ({ cloudCredentials: p }),
  projects: (p) => ({ projectCredentials: p }),
  scans: (p) => ({ scans: p, scanResults: p }),
  executor: (p) => ({ executor: p }),
  runners: (p) => ({ runners: p }),
  drifts: (p) => ({ drifts: p }),
  'repo-configs': (p) => ({ repoConfigs: p }),
};
const FROM_LEGACY: Record<string, (s: Record<string, any>) => unknown> = {
  auth: (s) => ({ accounts: s.accounts, userDirectory: s.userDirectory, registerMeter: s.registerMeter }),
  orgs: (s) => s.organizations,
  'audit-logs': (s) => s.auditRetention,
  credentials: (s) => s.cloudCredentials,
  projects: (s) => s.projectCredentials,
  scans: (s) => s.scans && { ...s.scans, ...s.scanResults },
  executor: (s) => s.executor,
  runners: (s) => s.runners,
  drifts: (s) => s.drifts,
  'repo-configs': (s) => s.repoConfigs,
};

export function publishLegacy(ctx: object, name: string, provides: unknown): void {
  if (provides !== undefined && TO_LEGACY[name]) Object.assign(bagOf(ctx), TO_LEGACY[name](provides));
}
export const legacyProvides = (ctx: object, name: string) => FROM_LEGACY[name]?.(bagOf(ctx));
export const legacyBag = bagOf;

export function wrapLegacy(manifest: Manifest, factory: PluginFactory): LoadedDefinition {
  return {
    manifest,
    needs: [],
    legacy: true,
    async build(ctx): Promise<BuiltPlugin> {
      const instance = await factory(Object.assign(Object.create(ctx), { services: bagOf(ctx) }));
      const handlers = Object.fromEntries(Object.entries(instance.handlers).map(([k, h]) => [k, (input: RouteInput) => h(input.req, input.reply)]));
      return { ...instance, handlers };
    },
  } as LoadedDefinition;
}
