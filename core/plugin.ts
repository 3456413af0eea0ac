// A plugin as the engine loads it (docs/architecture.md): its manifest, the plugins whose
// services it needs, and a build function that receives exactly those services and returns
// its handlers (typed from the manifest) and the service it offers the others.
//
// Each plugin that offers a service names its type here, from its own service.ts:
//
//   declare module '../../core/plugin.ts' {
//     interface PluginServices { scans: ScanService }
//   }
//
// so `needs: ['scans']` hands a typed `deps.scans` to the build function, with no import of
// the other plugin's folder and no cast. The loader orders plugins by these declarations
// and refuses to boot when a needed plugin is missing or disabled.
import type { AppContext } from './context.ts';
import type { HandlersOf, Manifest } from './manifest.ts';

/** Plugin name -> the service it offers; filled in by each plugin (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface PluginServices {}
export type PluginName = keyof PluginServices;

/** The services a build function receives: every `needs` entry, and each `uses` entry when that plugin is enabled. */
export type Deps<D extends PluginName, O extends PluginName> = { [K in D]: PluginServices[K] } & { [K in O]?: PluginServices[K] };

type Provides<M extends Manifest> = M['plugin'] extends PluginName
  ? { provides: PluginServices[M['plugin']] }
  : { provides?: undefined };

export type Built<M extends Manifest> = Provides<M> & {
  handlers: HandlersOf<M>;
  /** Runs once every plugin is built and indexes exist: define jobs, subscribe to events. */
  start?(): Promise<void>;
  stop?(): Promise<void>;
};

export interface PluginDefinition<M extends Manifest, D extends PluginName, O extends PluginName> {
  manifest: M;
  /** Plugins this one cannot run without: built first; the service refuses to boot without them. */
  needs: readonly D[];
  /** Plugins used when enabled (built first when they are). */
  uses?: readonly O[];
  build(ctx: AppContext, deps: Deps<D, O>): Built<M> | Promise<Built<M>>;
}

export const definePlugin = <const M extends Manifest, D extends PluginName = never, O extends PluginName = never>(
  def: PluginDefinition<M, D, O>,
) => def;

/** A definition as the loader handles it, whatever its types. */
export interface LoadedDefinition {
  manifest: Manifest;
  needs: readonly string[];
  uses?: readonly string[];
  build(ctx: AppContext, deps: Record<string, unknown>): Promise<BuiltPlugin> | BuiltPlugin;
}
export interface BuiltPlugin {
  handlers: Record<string, (input: never) => unknown>;
  provides?: unknown;
  start?(): Promise<void>;
  stop?(): Promise<void>;
}
