// The SAML flow as a test drives it: an Enterprise organization with its own identity provider
// (a generated key pair), the AuthnRequest ID from the login redirect, a signed response posted
// to the callback, and where the callback sent the browser.
import { inflateRawSync } from 'node:zlib';
import type { Test } from 'tap';
import { bearer, type Session } from '../../helper.ts';
import type { App } from '../../../core/app.ts';
import { generateKeyPair, samlResponse, type KeyPair } from './idp.ts';
import type { TestDns } from './dns.ts';

export const ENTRY = 'https://idp.example.test/sso';
export const SP = 'https://drift.example.test/saml/sp';

type Built = Pick<App, 'app' | 'ctx'>;
export interface Redirect { path: string; code: string | null; reason: string | null; location: string }

export function samlFlow(t: Test, { app, ctx }: Built) {
  const callbackUrl = `${ctx.config.publicUrl}/api/sso/saml/callback`;
  const headers = (s: Session) => ({ ...bearer(s.token), 'x-org-id': s.orgId });
  const requestIdOf = (location: string) => {
    const url = new URL(location);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString();
    return /ID="([^"]+)"/.exec(xml)![1];
  };
  const redirectOf = (location: string): Redirect => {
    const url = new URL(location);
    return { path: url.pathname, code: url.searchParams.get('code'), reason: url.searchParams.get('reason'), location };
  };

  const flow = {
    /** The organization on Enterprise with SSO enabled, signed by a key pair of its own. */
    async configure(admin: Session, extra: object = {}): Promise<KeyPair> {
      await ctx.tenancy.setPlan(admin.orgId, 'enterprise');
      const idp = generateKeyPair(`idp-${admin.orgId}`);
      const res = await app.inject({ method: 'PUT', url: '/api/sso/config', headers: headers(admin), payload: { saml: { entryPoint: ENTRY, issuer: SP, cert: idp.cert }, enabled: true, ...extra } });
      t.equal(res.statusCode, 200, `SSO configured (${res.body.slice(0, 200)})`);
      return idp;
    },
    /** Adds the domain, publishes its TXT record on the test DNS server and verifies it. */
    async verifyDomain(dns: TestDns, admin: Session, domain: string) {
      const added = await app.inject({ method: 'POST', url: '/api/sso/domains', headers: headers(admin), payload: { domain } });
      dns.txt.set(added.json().record.name, [added.json().record.value]);
      const res = await app.inject({ method: 'POST', url: `/api/sso/domains/${domain}/verify`, headers: headers(admin) });
      t.equal(res.statusCode, 200, `${domain} verified`);
    },
    /** A fresh AuthnRequest ID for the organization (GET /sso/saml/login). */
    async login(orgId: string): Promise<string> {
      const res = await app.inject({ method: 'GET', url: `/api/sso/saml/login?orgId=${orgId}` });
      t.equal(res.statusCode, 302, 'login redirects to the IdP');
      return requestIdOf(res.headers.location as string);
    },
    requestIdOf,
    /** Posts a response signed by the IdP naming this email, answering that request. */
    async answer(idp: KeyPair, requestId: string, email: string): Promise<Redirect> {
      const r = samlResponse(idp, { inResponseTo: requestId, email, audience: SP, destination: callbackUrl });
      const res = await app.inject({
        method: 'POST', url: '/api/sso/saml/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ SAMLResponse: r.base64 }).toString(),
      });
      t.equal(res.statusCode, 302, 'the callback redirects');
      return redirectOf(res.headers.location as string);
    },
    /** The whole sign-in: login, answer, and the exchange when a code came back. */
    async signIn(idp: KeyPair, orgId: string, email: string) {
      const redirect = await flow.answer(idp, await flow.login(orgId), email);
      if (!redirect.code || redirect.path !== '/auth/callback') return { redirect, session: null };
      const ex = await app.inject({ method: 'POST', url: '/api/sso/exchange', payload: { code: redirect.code } });
      return { redirect, session: ex.statusCode === 200 ? ex.json() as { token: string; user: { id: string; email: string; role: string } } : null };
    },
    accountOf: (email: string) => ctx.db.db.collection<{ _id: string; email: string }>('users').findOne({ email }),
    async auditOf(orgId: string, action: string) {
      await ctx.audit.flush();
      return (await ctx.audit.query({ orgId, action }, { page: 1, limit: 50 })).entries;
    },
  };
  return flow;
}
