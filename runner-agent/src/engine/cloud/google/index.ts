// cloud_c (Google Cloud): the google and google-beta resource types with a live reader, the
// attributes never reported as drift and the severity rules (gathered from compute/, platform/,
// data/, more/; engine/catalogue.ts puts them next to AWS's and Azure's), and the scan's REST
// client. State instances of other types are counted in stats.unsupported.
import { RestApi, type RestApiOptions } from '../rest/api.ts';
import type { RestCloud } from '../rest/reader.ts';
import type { RestReader } from '../rest/reader.ts';
import type { TokenSource } from '../token.ts';
import { COMPUTE_IGNORED, COMPUTE_READERS } from './compute/index.ts';
import { PLATFORM_IGNORED, PLATFORM_READERS } from './platform/index.ts';
import { GCP_DATA_IGNORED } from './data/ignore.ts';
import { GCP_DATA_READERS } from './data/index.ts';
import { MORE_IGNORED, MORE_READERS } from './more/index.ts';
import { LB_IGNORED, LB_READERS } from './lb/index.ts';
import { OPS_IGNORED, OPS_READERS } from './ops/index.ts';
import { EDGE_IGNORED, EDGE_READERS } from './edge/index.ts';
import { FLEET_IGNORED, FLEET_READERS } from './fleet/index.ts';
import { SECURITY_READERS } from './security/index.ts';
import { SECURITY_IGNORED } from './security/ignored.ts';
import { googleIdScope } from './scope.ts';

/** google-beta resources carry the same google_* types: one reader serves both providers. */
export const GOOGLE_READERS: Record<string, RestReader> = {
  ...COMPUTE_READERS,
  ...PLATFORM_READERS,
  ...GCP_DATA_READERS,
  ...MORE_READERS,
  ...LB_READERS,
  ...OPS_READERS,
  ...EDGE_READERS,
  ...FLEET_READERS,
  ...SECURITY_READERS,
};

/** Attribute patterns never reported, per google type. */
export const GOOGLE_IGNORED: Record<string, string[]> = {
  ...COMPUTE_IGNORED,
  ...PLATFORM_IGNORED,
  ...GCP_DATA_IGNORED,
  ...MORE_IGNORED,
  ...LB_IGNORED,
  ...OPS_IGNORED,
  ...EDGE_IGNORED,
  ...FLEET_IGNORED,
  ...SECURITY_IGNORED,
};

export { GOOGLE_RULES } from './rules.ts';

export const GOOGLE: RestCloud = { readers: GOOGLE_READERS, idScope: googleIdScope };

/** The scan's Google client; `endpoint` (tests, replay) serves every API under `${endpoint}/{service}`. */
export function googleApi(tokens: TokenSource, opts: { endpoint?: string; signal?: AbortSignal; ca?: string; backoffMs?: number; budget?: RestApiOptions['budget'] } = {}): RestApi {
  return new RestApi({
    cloud: 'cloud_c', tokens, signal: opts.signal, ca: opts.ca, backoffMs: opts.backoffMs, budget: opts.budget,
    baseUrl: (service) => (opts.endpoint ? `${opts.endpoint}/${service}` : `https://${service}.googleapis.com`),
    grantHint: 'roles/viewer on the project (Viewer)',
  });
}
