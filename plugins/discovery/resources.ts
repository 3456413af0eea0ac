// Discovered resources: their classification (managed / orphan / ignored) against the
// repository configs' state inventories, one resource with the configs managing it, the user's
// ignore, and its HCL (codify) and validation.
import { notFound } from '../../core/errors.ts';
import type { DiscoveryDeps } from './discovery-deps.ts';
import { codify, validateHcl } from './iac.ts';
import { resourceView } from './schemas.ts';
import { REFERENCE_TYPES, type DiscoveredResource, type IacStatus } from './store.ts';

export function createDiscoveredResources(d: Pick<DiscoveryDeps, 'store' | 'scans'>) {
  async function loadResource(orgId: string, id: string) {
    const r = await d.store.getResource(orgId, id);
    if (!r) throw notFound('Resource');
    return r;
  }

  /** The resource as answered, with the configs and addresses managing it now (read, not stored). */
  async function withManagers(orgId: string, r: DiscoveredResource) {
    const by = (await d.scans.managedBy(orgId, [r.resourceId])).get(r.resourceId) ?? [];
    return resourceView({ ...r, managedBy: by.map((m) => ({ repositoryConfigId: m.repositoryConfigId, address: m.address })) });
  }

  /** The resource's HCL, with references to the account's other discovered resources it names. */
  async function codified(orgId: string, r: DiscoveredResource) {
    const ids = new Set<string>();
    // Strings of the attributes and of their nested blocks (a listener's target group ARN), two levels down.
    const collect = (v: unknown, depth: number) => {
      if (typeof v === 'string') ids.add(v.includes(':role/') ? v.split('/').pop()! : v);
      else if (Array.isArray(v)) for (const x of v) collect(x, depth);
      else if (v && typeof v === 'object' && depth < 2) for (const x of Object.values(v)) collect(x, depth + 1);
    };
    for (const v of Object.values(r.attributes)) collect(v, 0);
    const known = new Map((await d.store.byResourceIds(orgId, r.cloudAccountId, [...ids].slice(0, 500)))
      .filter((k) => REFERENCE_TYPES.has(k.resourceType) && !(k.resourceType === r.resourceType && k.resourceId === r.resourceId)).map((k) => [k.resourceId, k.resourceType]));
    return codify(r.resourceType, r.resourceId, r.region, r.attributes, known);
  }

  return {
    /** managed / orphan / ignored of every live record of the organization, from the configs' inventories. */
    async classify(orgId: string) {
      const rows = await d.store.classifyRows(orgId);
      if (!rows.length) return; // nothing discovered: no inventory read (every drift scan of every organization calls this)
      const ids = await d.scans.managedIds(orgId);
      const want: Record<IacStatus, string[]> = { managed: [], orphan: [], ignored: [] };
      for (const r of rows) {
        const status: IacStatus = r.userIgnored ? 'ignored' : ids.has(r.resourceId) ? 'managed' : 'orphan';
        if (r.iacStatus !== status) want[status].push(r._id);
      }
      for (const status of ['managed', 'orphan', 'ignored'] as const) await d.store.setStatus(orgId, want[status], status);
    },

    getResource: async (orgId: string, id: string) => withManagers(orgId, await loadResource(orgId, id)),

    async setStatus(orgId: string, id: string, iacStatus: 'ignored' | 'orphan') {
      const r = await loadResource(orgId, id);
      const managed = (await d.scans.managedBy(orgId, [r.resourceId])).has(r.resourceId);
      const status: IacStatus = iacStatus === 'ignored' ? 'ignored' : managed ? 'managed' : 'orphan';
      await d.store.updateResource(orgId, id, { userIgnored: iacStatus === 'ignored', iacStatus: status });
      return withManagers(orgId, { ...r, userIgnored: iacStatus === 'ignored', iacStatus: status });
    },

    async generateIac(orgId: string, id: string) {
      const r = await loadResource(orgId, id);
      const c = await codified(orgId, r);
      return { resourceId: r.resourceId, resourceType: r.resourceType, iac: c.iac, importCommand: c.importCommand };
    },
    async validate(orgId: string, id: string) {
      const r = await loadResource(orgId, id);
      const c = await codified(orgId, r);
      const v = await validateHcl(c.iac);
      const lastValidated = new Date();
      await d.store.updateResource(orgId, id, { validation: { valid: v.valid, message: v.message, lastValidated } });
      return { resourceId: r.resourceId, valid: v.valid, lastValidated: lastValidated.toISOString(), validator: v.validator, ...(v.message ? { message: v.message } : {}) };
    },
  };
}
