// Which API-budget bucket a REST call draws from. Azure: the subscription the ARM path names and
// the resource provider it calls (the last `/providers/<namespace>`: an extension resource's own),
// `Microsoft.Resources` for subscription and resource-group reads, the host for data planes
// (Key Vault, Storage). Google: the project the path names and the API (`compute`, `storage`...).
// A path naming no subscription or project belongs to the credentials' one (`fallback`).
import type { BudgetCloud } from '../../budget/rates.ts';

export function restBucket(cloud: BudgetCloud, service: string, url: string, fallback: string): { account: string; service: string } {
  let path = '';
  try { path = decodeURIComponent(new URL(url).pathname); } catch { /* an unparsable URL fails in the request itself */ }
  if (cloud === 'google') {
    const project = /\/projects\/([^/]+)/.exec(path)?.[1];
    return { account: project || fallback, service };
  }
  const subscription = /\/subscriptions\/([^/]+)/i.exec(path)?.[1];
  const providers = [...path.matchAll(/\/providers\/([^/]+)/gi)].map((m) => m[1]);
  const dataPlane = service !== 'management'; // ARM's service name (azure/kit.ts ARM)
  return {
    account: subscription?.toLowerCase() || fallback.toLowerCase(),
    service: dataPlane ? service : providers.at(-1) ?? 'Microsoft.Resources',
  };
}
