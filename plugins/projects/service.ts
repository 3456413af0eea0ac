// Projects: a provider, sealed credentials (masked on read), a default (the first project,
// or the one set), and delete refused while repository configs still use the project.
import { Value } from 'typebox/value';
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { badRequest, conflict, notFound } from '../../core/errors.ts';
import { CloudACredentials, CloudBCredentials, CloudCCredentials } from '../credentials/schemas.ts';
import { summarizeCloudA, summarizeCloudB, summarizeCloudC } from '../credentials/mask.ts';
import type { Provider } from '../credentials/types.ts';
import type { Project, ProjectStore } from './store.ts';
import { namedChanges } from '../../core/db.ts';

const RULES = {
  cloud_a: { schema: CloudACredentials, summarize: summarizeCloudA, fields: ['accessKeyId', 'secretAccessKey', 'region', 'sessionToken'] },
  cloud_b: { schema: CloudBCredentials, summarize: summarizeCloudB, fields: ['subscriptionId', 'tenantId', 'clientId', 'clientSecret'] },
  cloud_c: { schema: CloudCCredentials, summarize: summarizeCloudC, fields: ['projectId', 'serviceAccountKey'] },
} as const;

/**
 * What projects need to know of the repository configs that use them. The repo-configs
 * plugin, which needs projects, attaches it (attachConfigs): projects never import it.
 */
export interface ProjectConfigs {
  countBy(orgId: string): Promise<Map<string, number>>;
  countIn(orgId: string, projectId: string): Promise<number>;
}
const NO_CONFIGS: ProjectConfigs = { countBy: async () => new Map(), countIn: async () => 0 };

export function createProjectService(ctx: AppContext, store: ProjectStore) {
  let configs = NO_CONFIGS;
  const view = (p: Project, defaultId: string | null, count: number) => ({
    _id: p._id, name: p.name, provider: p.provider, isDefault: p._id === defaultId, repoConfigCount: count,
    credentials: p.summary ? { hasCredentials: true, ...p.summary, lastUpdated: p.credentialsUpdatedAt?.toISOString() ?? null } : { hasCredentials: false, lastUpdated: null },
    createdAt: p.createdAt.toISOString(), updatedAt: p.updatedAt.toISOString(),
  });
  async function load(orgId: string, id: string) {
    const p = await store.get(orgId, id);
    if (!p) throw notFound('Project');
    return p;
  }
  async function one(orgId: string, p: Project) {
    const [defaultId, count] = await Promise.all([store.defaultId(orgId), configs.countIn(orgId, p._id)]);
    return view(p, defaultId, count);
  }

  return {
    attachConfigs(used: ProjectConfigs) { configs = used; },
    /** A project of the organization, or null. */
    find: (orgId: string, id: string) => store.get(orgId, id),
    async list(orgId: string) {
      const [rows, defaultId, counts] = await Promise.all([store.list(orgId), store.defaultId(orgId), configs.countBy(orgId)]);
      return rows.map((p) => view(p, defaultId, counts.get(p._id) ?? 0));
    },
    async create(orgId: string, input: { name: string; provider: Provider }) {
      const now = new Date();
      const p: Project = { _id: newId(), orgId, name: input.name, provider: input.provider, sealed: null, summary: null, credentialsUpdatedAt: null, createdAt: now, updatedAt: now };
      await store.insert(p);
      // The first project of an organization becomes its default (insert-only pointer).
      await store.initDefault(orgId, p._id);
      return one(orgId, p);
    },
    get: async (orgId: string, id: string) => one(orgId, await load(orgId, id)),
    async update(orgId: string, id: string, input: { name?: string }) {
      await load(orgId, id);
      await store.update(orgId, id, namedChanges({ name: input.name, updatedAt: new Date() }));
      return one(orgId, await load(orgId, id));
    },
    async remove(orgId: string, id: string) {
      await load(orgId, id);
      const used = await configs.countIn(orgId, id);
      if (used) throw conflict(`The project is used by ${used} repository ${used === 1 ? 'config' : 'configs'}; move them to another project first`, { repoConfigCount: used });
      await store.remove(orgId, id);
      // Deleting the default leaves the organization without one until another is set.
      await store.clearDefault(orgId, id);
      return { message: 'Project deleted' };
    },
    async setDefault(orgId: string, id: string) {
      const p = await load(orgId, id);
      await store.setDefault(orgId, id);
      return one(orgId, p);
    },
    async setCredentials(orgId: string, id: string, body: Record<string, unknown>) {
      const p = await load(orgId, id);
      const rules = RULES[p.provider];
      const values = Object.fromEntries(Object.entries(body).filter(([k]) => (rules.fields as readonly string[]).includes(k)));
      const problem = [...Value.Errors(rules.schema, values)][0];
      if (problem) throw badRequest(`credentials for ${p.provider}: ${problem.instancePath.slice(1) || 'body'} ${problem.message}`, { expectedFields: rules.fields });
      const now = new Date();
      // The sealed text names its organization and project, so a copy into another record does not open.
      const sealed = ctx.sealer.seal(JSON.stringify({ orgId, projectId: id, provider: p.provider, values }));
      const summary = (rules.summarize as unknown as (v: unknown) => Record<string, string>)(values);
      await store.update(orgId, id, { sealed, summary, credentialsUpdatedAt: now, updatedAt: now });
      return one(orgId, await load(orgId, id));
    },
    /** Decrypted credentials for the detection engine (the scans plugin's scan inputs). */
    async credentialValues(orgId: string, id: string): Promise<Record<string, unknown> | null> {
      const p = await store.get(orgId, id);
      if (!p?.sealed) return null;
      const payload = JSON.parse(ctx.sealer.open(p.sealed)) as { orgId: string; projectId: string; values: Record<string, unknown> };
      if (payload.orgId !== orgId || payload.projectId !== id) throw new Error('sealed project credentials belong to another record');
      return payload.values;
    },
  };
}
export type ProjectService = ReturnType<typeof createProjectService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { projects: ProjectService }
}
