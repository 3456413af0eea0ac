// SP-initiated SAML 2.0 sign-in with @node-saml/node-saml: the AuthnRequest over HTTP-Redirect,
// its ID kept in Redis with an expiry (InResponseTo must name one we issued), and the response
// checked for the configured certificate and signature algorithm, a signed assertion (and a
// signed response when wantAuthnResponseSigned), audience, destination and validity window
// with a small clock skew. A response or assertion ID is accepted once (ctx.once).
import { X509Certificate } from 'node:crypto';
import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import type { AppContext } from '../../core/context.ts';
import { randomToken, sha256Hex } from '../../core/crypto.ts';
import type { SsoConfig } from './store.ts';

export const REQUEST_TTL_MS = 10 * 60_000;
export const CLOCK_SKEW_MS = 3 * 60_000;
export const CODE_TTL_MS = 60_000;

/** Why a sign-in failed: the `reason` of the error redirect (docs/sso-scim.md lists them). */
export class SamlFailure extends Error {
  readonly reason: string;
  constructor(reason: string, detail?: string) { super(detail ?? reason); this.reason = reason; }
}

/** Whether the text is a PEM X.509 certificate node:crypto can read. */
export function isPemCertificate(text: string): boolean {
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(text)) return false;
  try { new X509Certificate(text); return true; } catch { return false; }
}

const ALGORITHMS: Record<string, string[]> = {
  sha1: ['http://www.w3.org/2000/09/xmldsig#rsa-sha1'],
  sha256: ['http://www.w3.org/2001/04/xmldsig-more#rsa-sha256'],
  sha512: ['http://www.w3.org/2001/04/xmldsig-more#rsa-sha512'],
};

/** What the SAML flow needs of the outside: issued requests in Redis, the ACS URL. */
export function createSaml(ctx: AppContext, callbackUrl: string) {
  const redis = ctx.redis.main;
  const requestKey = (id: string) => `sso:req:${id}`;

  /**
   * node-saml's request cache, over Redis: an issued request ID lives REQUEST_TTL_MS, in every
   * process. A link request (links.ts) also holds the signed-in user who started it: its answer
   * links an identity to that account (after they confirm) instead of signing anyone in.
   */
  const cache = (orgId: string, linkUserId?: string): CacheProvider => ({
    async saveAsync(key, value) {
      await redis.set(requestKey(key), JSON.stringify({ orgId, value, linkUserId }), 'PX', REQUEST_TTL_MS);
      return { value, createdAt: Date.now() };
    },
    async getAsync(key) {
      const raw = await redis.get(requestKey(key));
      if (!raw) return null;
      const held = JSON.parse(raw) as { orgId: string; value: string };
      // A request issued for another organization does not answer this one.
      return held.orgId === orgId ? held.value : null;
    },
    async removeAsync(key) {
      if (key) await redis.del(requestKey(key));
      return key;
    },
  });

  const samlFor = (config: SsoConfig, linkUserId?: string) => new SAML({
    callbackUrl,
    entryPoint: config.saml.entryPoint,
    issuer: config.saml.issuer,
    audience: config.saml.issuer,
    idpCert: config.saml.cert,
    signatureAlgorithm: config.saml.signatureAlgorithm,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: config.saml.wantAuthnResponseSigned,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: cache(config.orgId, linkUserId),
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
  });

  return {
    /** The identity provider's URL carrying a fresh AuthnRequest (HTTP-Redirect binding). */
    loginUrl: (config: SsoConfig, relayState: string, linkUserId?: string) => samlFor(config, linkUserId).getAuthorizeUrlAsync(relayState, undefined, {}),

    /** The organization a response answers, from its InResponseTo (before any other check). */
    async orgOfResponse(samlResponse: string): Promise<{ orgId: string; facts: ResponseFacts; linkUserId?: string }> {
      const facts = readFacts(samlResponse);
      if (!facts.inResponseTo) throw new SamlFailure('unknown_request', 'The response answers no request (IdP-initiated sign-in is not accepted)');
      const raw = await redis.get(requestKey(facts.inResponseTo));
      if (!raw) throw new SamlFailure('unknown_request', 'The response answers no request issued here, or one that expired');
      const held = JSON.parse(raw) as { orgId: string; linkUserId?: string };
      return { orgId: held.orgId, facts, linkUserId: held.linkUserId };
    },

    /** Validates the response against the organization's configuration; the NameID email and the IDs to spend. */
    async validate(config: SsoConfig, samlResponse: string, facts: ResponseFacts): Promise<{ email: string; name?: string }> {
      if (facts.destination && facts.destination !== callbackUrl) throw new SamlFailure('wrong_destination');
      const allowed = ALGORITHMS[config.saml.signatureAlgorithm];
      if (facts.signatureAlgorithms.some((a) => !allowed.includes(a))) throw new SamlFailure('invalid_signature', 'Signed with another algorithm than the configured one');
      let profile;
      try {
        ({ profile } = await samlFor(config).validatePostResponseAsync({ SAMLResponse: samlResponse }));
      } catch (err) {
        throw new SamlFailure(reasonOf((err as Error).message), (err as Error).message);
      }
      if (!profile) throw new SamlFailure('invalid_response');
      const email = String(profile.nameID ?? profile.email ?? '').trim().toLowerCase();
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new SamlFailure('missing_email');
      const given = profile.givenName ?? profile['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'];
      const family = profile.surname ?? profile['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'];
      const name = typeof profile.displayName === 'string' ? profile.displayName : [given, family].filter((v) => typeof v === 'string').join(' ') || undefined;
      return { email, name };
    },

    /** Forgets an answered request (one sign-in per request). */
    spendRequest: async (id: string) => { await redis.del(requestKey(id)); },

    /** A one-time code for the exchange step, valid CODE_TTL_MS, usable once (GETDEL). */
    async issueCode(payload: { userId: string; orgId: string }): Promise<string> {
      const code = randomToken('sso_');
      await redis.set(`sso:code:${sha256Hex(code)}`, JSON.stringify(payload), 'PX', CODE_TTL_MS);
      return code;
    },
    async spendCode(code: string): Promise<{ userId: string; orgId: string } | null> {
      const raw = await redis.getdel(`sso:code:${sha256Hex(code)}`);
      return raw ? JSON.parse(raw) : null;
    },
  };
}
export type Saml = ReturnType<typeof createSaml>;

export interface ResponseFacts { responseId?: string; assertionIds: string[]; inResponseTo?: string; destination?: string; signatureAlgorithms: string[] }

/** Reads the IDs, InResponseTo, Destination and signature algorithms of a base64 response; malformed -> invalid_response. */
function readFacts(samlResponse: string): ResponseFacts {
  let doc;
  try {
    const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    let bad = false;
    doc = new DOMParser({ errorHandler: { warning: () => undefined, error: () => { bad = true; }, fatalError: () => { bad = true; } } }).parseFromString(xml, 'text/xml');
    if (bad || !doc?.documentElement || doc.documentElement.localName !== 'Response') throw new Error('not a Response');
  } catch {
    throw new SamlFailure('invalid_response', 'The SAMLResponse is not a base64 SAML Response');
  }
  const root = doc.documentElement;
  const all = (name: string) => Array.from(doc.getElementsByTagNameNS('*', name));
  return {
    responseId: root.getAttribute('ID') || undefined,
    assertionIds: all('Assertion').map((a) => a.getAttribute('ID') ?? '').filter(Boolean),
    inResponseTo: root.getAttribute('InResponseTo') || undefined,
    destination: root.getAttribute('Destination') || undefined,
    signatureAlgorithms: all('SignatureMethod').map((s) => s.getAttribute('Algorithm') ?? ''),
  };
}

/** node-saml's error messages -> one short reason each. */
function reasonOf(message: string): string {
  // A subject confirmation is invalid for its NotOnOrAfter (InResponseTo mismatches are named apart).
  if (/expired|not yet valid|too old|No valid subject confirmation/i.test(message)) return 'expired';
  if (/audience/i.test(message)) return 'wrong_audience';
  if (/InResponseTo/i.test(message)) return 'unknown_request';
  if (/signature|signed/i.test(message)) return 'invalid_signature';
  if (/status/i.test(message)) return 'idp_error';
  return 'invalid_response';
}
