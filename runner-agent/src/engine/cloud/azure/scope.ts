// Where an azurerm instance lives: the subscription (or the root scope) and resource group its
// ARM id names, and its location (lowercase, as the provider stores it). ARM reads every
// resource by its id, so the id is the scope; an instance whose state holds no ARM id cannot be
// read and is counted as of unknown scope, never reported deleted.
import type { StateInstance } from '../../types.ts';
import type { Scope } from '../rest/reader.ts';
import { location } from './kit.ts';

/**
 * Types that live on a storage data plane only (no ARM id, no subscription in the state): read
 * at the URL their id is, in no subscription.
 */
const DATA_PLANE = ['azurerm_storage_blob', 'azurerm_storage_share_file'];

export function azureScope(instance: StateInstance): Scope | undefined {
  // A storage container's or file share's id may be its data-plane URL (azurerm 2.x/3.x): its resource_manager_id is the ARM id.
  const arm = (v: unknown) => (typeof v === 'string' && v.startsWith('/') ? v : undefined);
  // A key vault secret's id is its data-plane URL: its vault's ARM id (key_vault_id) names the scope.
  const id = arm(instance.attributes.id) ?? arm(instance.attributes.resource_manager_id) ?? arm(instance.attributes.key_vault_id);
  if (!id) return DATA_PLANE.includes(instance.type) && /^https:\/\//i.test(String(instance.attributes.id ?? '')) ? { account: '', location: null, source: 'url' } : undefined;
  const sub = /^\/subscriptions\/([^/]+)/i.exec(id)?.[1];
  const loc = location(instance.attributes.location);
  // A management group or tenant-level id (role assignments, policies) has no subscription: its root scope stands in.
  const account = sub ?? id.split('/providers/')[0] ?? '';
  return { account: account.toLowerCase(), location: typeof loc === 'string' && loc ? loc : null, source: 'id' };
}
