// The scan routes' reads (lists, a scan with its drifts, the dashboard), the platform-wide
// counts, and the managed-resource reads other plugins ask of the inventory scans record.
import { notFound } from '../../core/errors.ts';
import { narrow, type RepoScope } from '../../core/guards/repositories.ts';
import type { DriftService } from '../drifts/service.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import type { ManagedStore } from './managed-store.ts';
import { scanView } from './schemas.ts';
import type { ScanStatus, ScanStore } from './store.ts';
import { pageOf } from '../../core/schemas.ts';

const DETAIL_DRIFTS = 1000;
/** Resource ids per managedBy read. */
const MANAGED_CHUNK = 1000;

interface Deps { scans: ScanStore; managed: ManagedStore; drifts: DriftService; configs: RepoConfigService }

export function createScanReads(d: Deps) {
  async function loadConfig(orgId: string, id: string) {
    const c = await d.configs.find(orgId, id);
    if (!c) throw notFound('Repository config');
    return c;
  }
  async function load(orgId: string, id: string) {
    const s = await d.scans.get(orgId, id);
    if (!s) throw notFound('Scan');
    return s;
  }
  return {
    /** Platform-wide counts, for the admin routes and the metrics. */
    platform: {
      count: () => d.scans.countAll(),
      countPerOrg: (orgIds: string[]) => d.scans.countPerOrg(orgIds),
      countWithStatus: (status: ScanStatus) => d.scans.countWithStatus(status),
    },
    /** Completed scans since a time, as {repositoryConfig, completedAt} (the predictions plugin's features). */
    completedSince: async (orgId: string, since: Date) =>
      (await d.scans.completedSince(orgId, since)).map((s) => ({ repositoryConfig: s.repositoryConfig, completedAt: s.completedAt })),

    /** `repositories`: a CLI token's configs (undefined: every config of the organization). */
    async list(orgId: string, q: { page: number; limit: number; status?: ScanStatus }, repositories: RepoScope) {
      const { rows, total } = await d.scans.page(orgId, { status: q.status, repositoryConfig: repositories }, (q.page - 1) * q.limit, q.limit);
      return pageOf(rows.map(scanView), q, total);
    },
    async byRepository(orgId: string, configId: string, q: { page: number; limit: number }) {
      await loadConfig(orgId, configId);
      const { rows } = await d.scans.page(orgId, { repositoryConfig: [configId] }, (q.page - 1) * q.limit, q.limit);
      return rows.map(scanView);
    },
    async latest(orgId: string, configId: string) {
      await loadConfig(orgId, configId);
      const s = await d.scans.latest(orgId, configId);
      return s ? scanView(s) : null;
    },
    get: async (orgId: string, scanId: string) => scanView(await load(orgId, scanId)),
    async details(orgId: string, scanId: string) {
      const scan = await load(orgId, scanId);
      return { ...scanView(scan), drifts: await d.drifts.scanDrifts(orgId, scanId, DETAIL_DRIFTS) };
    },
    async dashboard(orgId: string, repositories: RepoScope) {
      const repos = narrow(repositories);
      const [totalScans, totalDrifts, resolvedDrifts, activeRepositories, recent, driftTrendRows] = await Promise.all([
        d.scans.count(orgId, { repositoryConfig: repos }),
        d.drifts.count(orgId, { repositoryConfig: repos }),
        d.drifts.count(orgId, { repositoryConfig: repos, status: ['resolved'] }),
        repos ? d.configs.configsOf(orgId, repos).then((r) => r.length) : d.configs.countActive(orgId),
        d.scans.recent(orgId, { repositoryConfig: repos }, 5),
        d.drifts.trend(orgId, repos),
      ]);
      return { totalScans, totalDrifts, resolvedDrifts, activeRepositories, recentScans: recent.map(scanView), driftTrend: driftTrendRows };
    },
  };
}

/** What the inventory of each config's last completed scan says about cloud resources (discovery, cloud-events). */
export function createManagedReads(d: { managed: ManagedStore }) {
  return {
    /**
     * Which of these cloud resource ids the organization's states manage (as the last completed
     * scan of each config read them): per id, every config and address managing it. Ids no state
     * manages are absent from the map. Chunked: any number of ids.
     */
    async managedBy(orgId: string, resourceIds: string[]) {
      const out = new Map<string, { repositoryConfigId: string; address: string; type: string; region: string | null }[]>();
      const ids = [...new Set(resourceIds.filter(Boolean))];
      for (let i = 0; i < ids.length; i += MANAGED_CHUNK) {
        for (const r of await d.managed.byResourceIds(orgId, ids.slice(i, i + MANAGED_CHUNK))) {
          if (!r.resourceId) continue;
          const list = out.get(r.resourceId) ?? [];
          list.push({ repositoryConfigId: r.repositoryConfigId, address: r.address, type: r.type, region: r.region });
          out.set(r.resourceId, list);
        }
      }
      return out;
    },
    /** Every resource id the organization's states manage (one streamed read). */
    async managedIds(orgId: string) {
      const out = new Set<string>();
      for await (const r of d.managed.ids(orgId)) if (r.resourceId) out.add(r.resourceId);
      return out;
    },
    /** The managed resources a config's last inventory holds, by address. */
    managedOf: (orgId: string, repositoryConfigId: string) => d.managed.ofConfig(orgId, repositoryConfigId),
  };
}
