// The engine's Cloud Discovery surface (package export `./discovery`): listing what an account
// holds (cloud_a through the SDK listers, cloud_b / cloud_c through their REST APIs), and what
// the service needs to write and check HCL for what was found. Nothing in the engine imports
// this file: it only names what the service may use.
export { DISCOVERABLE_TYPES, discoverAccount, regionsOf, type DiscoverInput, type DiscoverOutcome, type DiscoveredResource } from './discover.ts';
export { discoverRestAccount, discoverableRest, restRegionsOf, type RestDiscoverInput, type RestProvider } from './discover-rest.ts';
export { commentText, hclString } from './hcl-string.ts';
export { findTofu } from './plan-binary.ts';
export { ScanError } from './errors.ts';
export type { AwsCredentials } from './types.ts';
