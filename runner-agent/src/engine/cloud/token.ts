// How a REST cloud context gets its bearer tokens (cloud/azure/auth.ts, cloud/google/auth.ts).
export interface TokenSource {
  token(signal?: AbortSignal): Promise<string>;
  /** Who the token is for, for messages ("service principal <id> in tenant <t>"); never a secret. */
  readonly describe: string;
}
