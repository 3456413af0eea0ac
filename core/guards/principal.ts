// Who is calling. Credential readers (registered by the plugins that own the credentials:
// accounts for JWT/CLI/download/service keys, runners, SCIM) turn a request into a Principal.
import type { FastifyRequest } from 'fastify';
import type { AuthKind } from '../manifest.ts';
import type { OrgAccess } from '../tenancy/index.ts';

export interface Principal {
  kind: 'user' | 'cli' | 'service' | 'download' | 'runner' | 'scim' | 'cloud-events';
  userId?: string;
  sessionId?: string;
  email?: string;
  name?: string;
  platformRole: 'user' | 'admin';
  defaultOrgId?: string;
  /** CLI tokens: the exact scopes granted. */
  scopes?: readonly string[];
  /** CLI tokens: repository restriction. */
  repositories?: { all: boolean; ids: readonly string[] };
  /** Credentials bound to one organization (CLI, runner, SCIM tokens). */
  orgId?: string;
  /** The token itself, for request signing (CLI tokens). */
  signingKey?: string;
  tokenId?: string;
  runnerId?: string;
}

export interface OrgContext extends OrgAccess { id: string }

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    org?: OrgContext;
    rawBody?: string;
  }
}

export const CREDENTIALS = ['jwt', 'jwt-query', 'cli', 'download', 'service-key', 'runner', 'runner-link', 'scim', 'cloud-events'] as const;
export type CredentialKind = (typeof CREDENTIALS)[number];

/**
 * Reads one kind of credential. Returns undefined when the request does not carry that
 * kind (the next reader is tried), a Principal when it is valid, and throws invalid_token
 * when it carries one that is not.
 */
export type CredentialReader = (req: FastifyRequest) => Promise<Principal | undefined>;

/** Which credentials each manifest auth kind accepts, in the order they are tried. */
export const ACCEPTS: Record<Exclude<AuthKind, 'none'>, CredentialKind[]> = {
  user: ['jwt'],
  'user-redirect': ['jwt', 'jwt-query'],
  bearer: ['jwt', 'cli'],
  download: ['download', 'jwt', 'cli'],
  'service-key': ['service-key'],
  runner: ['runner'],
  'runner-link': ['runner-link'],
  scim: ['scim'],
  'cloud-events': ['cloud-events'],
};

export const bearerToken = (req: FastifyRequest): string | undefined => {
  const header = req.headers.authorization;
  if (!header || !/^bearer /i.test(header)) return undefined;
  return header.slice(7).trim() || undefined;
};
