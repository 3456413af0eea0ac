/** A bad or missing configuration value: the process stops with this message (core/config.ts). */
export class ConfigError extends Error {}
