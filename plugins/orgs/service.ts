// Organizations as the caller sees them (their role and the member count beside each),
// renaming, and deletion of everything an organization owns.
import type { AppContext } from '../../core/context.ts';
import type { Organization } from '../../core/tenancy/index.ts';
import type { OrgView } from './schemas.ts';
import { withFacts, type Caller } from './rules.ts';
import type { ProvisionInvite } from './invitations.ts';

export function createOrgService(ctx: AppContext) {
  const { tenancy } = ctx;

  const view = (org: Organization, role: string, count: number): OrgView => ({
    _id: org._id, name: org.name, role, memberCount: count, plan: org.plan, createdAt: org.createdAt.toISOString(),
  });

  async function get(org: Organization, role: string): Promise<OrgView> {
    const counts = await tenancy.memberCounts([org._id]);
    return view(org, role, counts.get(org._id) ?? 0);
  }

  return {
    get,

    async list(userId: string): Promise<OrgView[]> {
      const memberships = await tenancy.listUserMemberships(userId);
      const ids = memberships.map((m) => m.orgId);
      if (!ids.length) return [];
      const [orgs, counts] = await Promise.all([tenancy.findOrgs(ids), tenancy.memberCounts(ids)]);
      const byId = new Map(orgs.map((o) => [o._id, o]));
      return memberships.flatMap((m) => {
        const org = byId.get(m.orgId);
        return org ? [view(org, m.role, counts.get(org._id) ?? 0)] : [];
      });
    },

    async create(userId: string, name: string): Promise<OrgView> {
      const org = await tenancy.createOrganization({ name, ownerId: userId });
      return view(org, 'owner', 1);
    },

    async rename(caller: Caller, name: string) {
      const org = caller.org.org;
      await tenancy.renameOrganization(org._id, name);
      return withFacts(await get({ ...org, name }, caller.org.role), { target: { type: 'organization', id: org._id, name }, from: { name: org.name }, to: { name } });
    },

    /**
     * Permanently deletes the organization and everything it owns: every plugin's data
     * through the hooks plugins register (ctx.onOrgDelete, so a plugin added later cannot be
     * forgotten here), then the engine's records: exactly-once keys, audit entries, and last
     * the organization with its memberships and roles. Each step is idempotent and the
     * organization goes last, so after a failure the owner can simply delete it again.
     */
    async remove(orgId: string): Promise<void> {
      await ctx.deleteOrgData(orgId);
      await ctx.once.forgetOrg(orgId);
      await ctx.audit.removeOrg(orgId);
      await tenancy.removeOrganization(orgId);
    },
  };
}
export type OrgService = ReturnType<typeof createOrgService>;

/**
 * What other plugins may call: account deletion removes organizations the user owns alone;
 * SCIM invites someone who is not a member (they accept it themselves) and withdraws it.
 */
export interface Organizations {
  remove(orgId: string): Promise<void>;
  invite(input: ProvisionInvite): Promise<{ invitationId: string }>;
  withdrawInvitation(orgId: string, invitationId: string, by: string): Promise<void>;
}

declare module '../../core/plugin.ts' {
  interface PluginServices { orgs: Organizations }
}
