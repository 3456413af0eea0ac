// Verifies an email domain for an organization the way a customer does: claim it, publish the
// TXT record (on the test's loopback DNS server), verify.
import type { Test } from 'tap';
import type { App } from '../../../core/app.ts';
import type { TestDns } from './dns.ts';

export async function verifyDomain(t: Test, app: App['app'], dns: TestDns, headers: Record<string, string>, domain: string): Promise<void> {
  const added = await app.inject({ method: 'POST', url: '/api/sso/domains', headers, payload: { domain } });
  if (added.statusCode !== 201) throw new Error(`claim ${domain}: ${added.statusCode} ${added.body}`);
  const { name, value } = added.json().record as { name: string; value: string };
  dns.txt.set(name, [value]);
  const verified = await app.inject({ method: 'POST', url: `/api/sso/domains/${domain}/verify`, headers });
  t.equal(verified.statusCode, 200, `${domain} verified`);
}
