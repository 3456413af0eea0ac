// TEMPORARY (deleted at merge): the auth service as converted plugins see it until the auth
// plugin declares its own PluginServices entry.
declare module './plugin.ts' {
  interface PluginServices { auth: { registerMeter(name: string, meter: (orgId: string) => Promise<number>): void } }
}
export {};
