// A test identity provider: a generated RSA key pair and self-signed certificate (openssl),
// SAML responses built as IdPs send them and signed with xml-crypto (the library node-saml uses).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { SignedXml } from 'xml-crypto';

export interface KeyPair { key: string; cert: string }

export function generateKeyPair(cn = 'test-idp'): KeyPair {
  const dir = mkdtempSync(join(tmpdir(), 'idp-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', `/CN=${cn}`], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ResponseOptions {
  inResponseTo?: string;
  email: string;
  audience: string;
  destination: string;
  issuer?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  signAssertion?: boolean;
  signResponse?: boolean;
  algorithm?: 'sha256' | 'sha1';
  responseId?: string;
  assertionId?: string;
}

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const ALG = { sha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', sha1: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' };
const DIGEST = { sha256: 'http://www.w3.org/2001/04/xmlenc#sha256', sha1: 'http://www.w3.org/2000/09/xmldsig#sha1' };

function sign(xml: string, keys: KeyPair, localName: string, algorithm: 'sha256' | 'sha1', issuerAfter: boolean): string {
  const sig = new SignedXml({ privateKey: keys.key, publicCert: keys.cert, signatureAlgorithm: ALG[algorithm], canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#' });
  sig.addReference({ xpath: `//*[local-name(.)='${localName}']`, transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'], digestAlgorithm: DIGEST[algorithm] });
  sig.computeSignature(xml, { location: { reference: `//*[local-name(.)='${localName}']/*[local-name(.)='Issuer']`, action: issuerAfter ? 'after' : 'prepend' } });
  return sig.getSignedXml();
}

/** A base64 SAML Response as an IdP posts it. */
export function samlResponse(keys: KeyPair, o: ResponseOptions): { base64: string; xml: string; responseId: string; assertionId: string } {
  const now = new Date();
  const responseId = o.responseId ?? `_r${randomBytes(10).toString('hex')}`;
  const assertionId = o.assertionId ?? `_a${randomBytes(10).toString('hex')}`;
  const issuer = o.issuer ?? 'https://idp.example.test/metadata';
  const notBefore = o.notBefore ?? new Date(now.getTime() - 60_000);
  const notOnOrAfter = o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
  const irt = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
  const assertion = `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">`
    + `<saml:Issuer>${issuer}</saml:Issuer>`
    + `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.email}</saml:NameID>`
    + `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${irt} NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${o.destination}"/></saml:SubjectConfirmation></saml:Subject>`
    + `<saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>`
    + `<saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`
    + `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>Test Person</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`
    + `</saml:Assertion>`;
  const algorithm = o.algorithm ?? 'sha256';
  let signedAssertion = o.signAssertion === false ? assertion : sign(assertion, keys, 'Assertion', algorithm, true);
  signedAssertion = signedAssertion.replace(/^<\?xml[^>]*>/, '');
  let xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${responseId}" Version="2.0" IssueInstant="${iso(now)}" Destination="${o.destination}"${irt}>`
    + `<saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${signedAssertion}</samlp:Response>`;
  if (o.signResponse !== false) xml = sign(xml, keys, 'Response', algorithm, true);
  return { base64: Buffer.from(xml).toString('base64'), xml, responseId, assertionId };
}
