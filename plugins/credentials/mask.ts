// Masking of credential identifiers for the summaries (SPEC "Cloud credentials summary
// (masked)"), and the display facts each provider keeps beside its sealed values.
//
// A masked value shows its first and last four characters around a fixed run of stars, so
// the owner can tell which key is stored while the stars give away neither the middle nor
// the length. A value too short to hide at least half of itself is all stars.
import type { CloudACredentials, CloudBCredentials, CloudCCredentials } from './schemas.ts';

const VISIBLE = 4;
const STARS = '********';
/** Below this length, showing 4 + 4 characters would reveal most of the value. */
const MIN_MASKABLE = 16;

export function mask(value: string): string {
  if (value.length < MIN_MASKABLE) return STARS;
  return value.slice(0, VISIBLE) + STARS + value.slice(-VISIBLE);
}

/**
 * What each provider stores in clear beside its sealed values: masked identifiers and the
 * facts that are not secret (region, project id, service account e-mail). The summary is
 * built from these alone, so a GET never decrypts and can never leak a secret.
 */
export interface CloudASummaryFields { accessKeyId: string; region: string }
export interface CloudBSummaryFields { subscriptionId: string; tenantId: string; clientId: string }
export interface CloudCSummaryFields { projectId: string; clientEmail?: string }

export const summarizeCloudA = (v: CloudACredentials): CloudASummaryFields => ({
  accessKeyId: mask(v.accessKeyId),
  region: v.region,
});

export const summarizeCloudB = (v: CloudBCredentials): CloudBSummaryFields => ({
  subscriptionId: mask(v.subscriptionId),
  tenantId: mask(v.tenantId),
  clientId: mask(v.clientId),
});

export function summarizeCloudC(v: CloudCCredentials): CloudCSummaryFields {
  // A service account key names its identity in client_email; it is an address, not a secret.
  const email = v.serviceAccountKey.client_email;
  return typeof email === 'string' && email ? { projectId: v.projectId, clientEmail: email } : { projectId: v.projectId };
}
