// Domain verification: an organization proves it controls an email domain by publishing a DNS
// TXT record with a random token we gave it. Only then may its identity provider sign in
// existing accounts of that domain, create new ones in it (JIT) or enforce SSO for it
// (docs/sso-scim.md#verified-domains). One domain is verified by at most one organization:
// the proof is an insert under a unique index (domain-store.ts), so of concurrent
// verifications exactly one wins. Other modules ask `domainOwner` / `isVerified`.
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { newId, randomToken } from '../../core/crypto.ts';
import { AppError } from '../../core/errors.ts';
import type { DomainClaim, DomainStore } from './domain-store.ts';

export const RECORD_PREFIX = '_drift-verification';
export const VALUE_PREFIX = 'drift-verification=';
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const bad = (why: string) => new AppError('bad_request', { message: `domain ${why}` });

/**
 * The canonical form of a domain: lowercase ASCII (Unicode names become punycode), no trailing
 * dot; 400 for a wildcard, an IP address, a single label or a label that DNS does not allow.
 */
export function normalizeDomain(input: string): string {
  let d = input.trim().toLowerCase();
  if (d.endsWith('.')) d = d.slice(0, -1);
  if (d.includes('*')) throw bad('must not be a wildcard');
  if (isIP(d) || isIP(d.replace(/^\[|\]$/g, ''))) throw bad('must be a domain name, not an IP address');
  const ascii = domainToASCII(d);
  if (!ascii || ascii.length > 253) throw bad('is not a valid domain name');
  const labels = ascii.split('.');
  if (labels.length < 2) throw bad('must have at least two labels (example.com)');
  if (!labels.every((l) => LABEL.test(l))) throw bad('is not a valid domain name (letters, digits and hyphens per label)');
  if (/^\d+$/.test(labels[labels.length - 1])) throw bad('must be a domain name, not an IP address');
  return ascii;
}

/** The domain of an email address in canonical form; null when it has none a domain may be verified for. */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 0) return null;
  try { return normalizeDomain(email.slice(at + 1)); } catch { return null; }
}

/** A TXT lookup: the record's strings (chunks joined); [] when the name has none. */
export type TxtLookup = (name: string) => Promise<string[]>;

/** node:dns's resolver, asking DNS_SERVERS when set (tests: a loopback DNS server), else the system's. */
export function dnsTxtLookup(servers: string): TxtLookup {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  const list = servers.split(',').map((s) => s.trim()).filter(Boolean);
  if (list.length) resolver.setServers(list);
  return async (name) => {
    try {
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENODATA' || code === 'ENOTFOUND') return [];
      throw new AppError('sso.dns_unavailable', { message: `The DNS lookup of ${name} failed (${code ?? 'error'}); retry shortly` });
    }
  };
}

export interface DomainHooks {
  /** A domain stops being verified by the organization (removed): it no longer enforces it. */
  onUnverified(orgId: string, domain: string): Promise<void>;
}

export function createDomains(store: DomainStore, lookup: TxtLookup, hooks: DomainHooks) {
  const recordOf = (c: DomainClaim) => ({ name: `${RECORD_PREFIX}.${c.domain}`, type: 'TXT' as const, value: `${VALUE_PREFIX}${c.token}` });
  const view = (c: DomainClaim, verifiedAt: Date | null) => ({
    domain: c.domain, status: verifiedAt ? 'verified' as const : 'pending' as const, record: recordOf(c), createdAt: c.createdAt, verifiedAt,
  });
  const verifiedAtOf = async (orgId: string, domain: string) => {
    const v = await store.verifiedOwner(domain);
    return v?.orgId === orgId ? v.verifiedAt : null;
  };
  async function claimOf(orgId: string, raw: string) {
    const claim = await store.claim(orgId, normalizeDomain(raw));
    if (!claim) throw new AppError('not_found', { message: 'Domain not found; add it with POST /api/sso/domains first' });
    return claim;
  }

  const domains = {
    /** POST /sso/domains: the claim (kept when it exists) and the TXT record to publish. */
    async add(orgId: string, raw: string) {
      const domain = normalizeDomain(raw);
      const claim = await store.insertClaim({ _id: newId(), orgId, domain, token: randomToken(''), createdAt: new Date() });
      return view(claim, await verifiedAtOf(orgId, domain));
    },
    async list(orgId: string) {
      const [claims, verified] = await Promise.all([store.claims(orgId), store.verifiedOf(orgId)]);
      const at = new Map(verified.map((v) => [v.domain, v.verifiedAt]));
      return { domains: claims.map((c) => view(c, at.get(c.domain) ?? null)) };
    },
    /** POST /sso/domains/:domain/verify: looks the TXT record up; 409 when missing or verified by another organization. */
    async verify(orgId: string, raw: string) {
      const claim = await claimOf(orgId, raw);
      const owner = await store.verifiedOwner(claim.domain);
      if (owner?.orgId === orgId) return view(claim, owner.verifiedAt);
      if (owner) throw new AppError('sso.domain_taken');
      const record = recordOf(claim);
      const found = await lookup(record.name);
      if (!found.some((v) => v.trim() === record.value)) {
        throw new AppError('sso.domain_record_missing', {
          message: `No TXT record ${record.name} with the value ${record.value} was found; publish it at your DNS provider and verify again`,
          details: { record },
        });
      }
      const verifiedAt = new Date();
      if (!(await store.insertVerified({ _id: newId(), domain: claim.domain, orgId, verifiedAt }))) {
        // A concurrent verification won: ours when the same organization verified twice.
        const winner = await store.verifiedOwner(claim.domain);
        if (winner?.orgId === orgId) return view(claim, winner.verifiedAt);
        throw new AppError('sso.domain_taken');
      }
      return view(claim, verifiedAt);
    },
    /** DELETE /sso/domains/:domain: the claim and its proof; the configuration stops enforcing it. */
    async remove(orgId: string, raw: string) {
      const claim = await claimOf(orgId, raw);
      // Proof first: a crash between the two leaves a pending claim, never a proof without one.
      await store.removeVerified(orgId, claim.domain);
      await hooks.onUnverified(orgId, claim.domain);
      await store.removeClaim(orgId, claim.domain);
      return { success: true as const };
    },

    /** The organization that verified this domain (canonical form or not); null when none. */
    async domainOwner(domain: string): Promise<string | null> {
      let canonical: string;
      try { canonical = normalizeDomain(domain); } catch { return null; }
      return (await store.verifiedOwner(canonical))?.orgId ?? null;
    },
    /** Whether this organization has verified this domain. */
    isVerified: async (orgId: string, domain: string) => (await domains.domainOwner(domain)) === orgId,
    /** Those of the domains this organization has not verified (canonical forms). */
    async unverified(orgId: string, list: string[]): Promise<string[]> {
      const out: string[] = [];
      for (const d of list) if (!(await domains.isVerified(orgId, d))) out.push(d);
      return out;
    },
  };
  return domains;
}
export type Domains = ReturnType<typeof createDomains>;
