// The only file touching the domain collections. A claim (sso_domains) is an organization's
// request to verify a domain, with the token its DNS record must carry; a verification
// (sso_verified_domains) is the proof, and its UNIQUE index on `domain` is what makes one
// domain verified by at most one organization, also under concurrent verifications (the
// embedded FerretDB's updates are not atomic with their filter; unique indexes hold).
import type { CollectionSpec, Database } from '../../core/db.ts';
import { insertUnlessDuplicate } from '../../core/db.ts';

export interface DomainClaim { _id: string; orgId: string; domain: string; token: string; createdAt: Date }
export interface VerifiedDomain { _id: string; domain: string; orgId: string; verifiedAt: Date }

const spec = (name: string, indexes: CollectionSpec['indexes']): CollectionSpec => ({ name, owner: 'plugins/sso-scim', indexes });
export const SSO_DOMAINS = spec('sso_domains', [{ key: { orgId: 1, domain: 1 }, unique: true }]);
export const SSO_VERIFIED_DOMAINS = spec('sso_verified_domains', [{ key: { domain: 1 }, unique: true }, { key: { orgId: 1, domain: 1 } }]);

export function createDomainStore(db: Database) {
  const claims = db.collection<DomainClaim>(SSO_DOMAINS);
  const verified = db.collection<VerifiedDomain>(SSO_VERIFIED_DOMAINS);
  return {
    claim: (orgId: string, domain: string) => claims.findOne({ orgId, domain }),
    /** Inserts the claim; a concurrent one for the same organization and domain wins and is returned. */
    async insertClaim(c: DomainClaim): Promise<DomainClaim> {
      if (await insertUnlessDuplicate(claims, c)) return c;
      return (await claims.findOne({ orgId: c.orgId, domain: c.domain }))!;
    },
    claims: (orgId: string) => claims.find({ orgId }).sort({ domain: 1 }).limit(500).toArray(),
    removeClaim: async (orgId: string, domain: string) => (await claims.deleteOne({ orgId, domain })).deletedCount === 1,

    /** Records the proof; false when the domain is already verified (by any organization). Exactly once. */
    insertVerified: (v: VerifiedDomain): Promise<boolean> => insertUnlessDuplicate(verified, v),
    verifiedOwner: (domain: string) => verified.findOne({ domain }),
    verifiedOf: (orgId: string) => verified.find({ orgId }).sort({ domain: 1 }).limit(500).toArray(),
    removeVerified: async (orgId: string, domain: string) => (await verified.deleteOne({ orgId, domain })).deletedCount === 1,

    async removeOrg(orgId: string) {
      await Promise.all([claims.deleteMany({ orgId }), verified.deleteMany({ orgId })]);
    },
  };
}
export type DomainStore = ReturnType<typeof createDomainStore>;
