// The cloud providers credentials are kept for, shared with the plugins that read credentials
// (projects): they import them from here, never from store.ts.
export const PROVIDERS = ['cloud_a', 'cloud_b', 'cloud_c'] as const;
export type Provider = (typeof PROVIDERS)[number];
