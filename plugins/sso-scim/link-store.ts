// The only file touching sso_links: an account holder's own link between their account and an
// identity (NameID) of one organization's identity provider. One identity of an organization
// links to one account, and an account links to one identity per organization (both unique).
import type { CollectionSpec, Database } from '../../core/db.ts';
import { insertUnlessDuplicate } from '../../core/db.ts';

export interface SsoLink { _id: string; userId: string; orgId: string; nameId: string; createdAt: Date }

export const SSO_LINKS: CollectionSpec = {
  name: 'sso_links', owner: 'plugins/sso-scim',
  indexes: [{ key: { orgId: 1, nameId: 1 }, unique: true }, { key: { userId: 1, orgId: 1 }, unique: true }],
};

export function createLinkStore(db: Database) {
  const links = db.collection<SsoLink>(SSO_LINKS);
  return {
    byNameId: (orgId: string, nameId: string) => links.findOne({ orgId, nameId }),
    byUser: (userId: string, orgId: string) => links.findOne({ userId, orgId }),
    /** False when the identity is linked to an account already (unique index: exactly once). */
    insert: (link: SsoLink): Promise<boolean> => insertUnlessDuplicate(links, link),
    remove: async (userId: string, orgId: string) => (await links.deleteOne({ userId, orgId })).deletedCount === 1,
    removeStale: async (id: string) => { await links.deleteOne({ _id: id }); },
    removeOrg: async (orgId: string) => { await links.deleteMany({ orgId }); },
  };
}
export type LinkStore = ReturnType<typeof createLinkStore>;
