// The AWS account a scan's credentials belong to, the first part of its buckets' keys: asked of
// STS (GetCallerIdentity needs no permission) with the credentials themselves, so the account is
// proven by the keys, never taken from what a config says. One answer per access key is kept an
// hour in this process, under a digest of the whole key pair (a caller holding only the key id
// never gets another's answer). Should STS not answer, the account is that digest: scans with the
// same keys still share their buckets.
import { createHash } from 'node:crypto';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import type { AwsCredentials } from '../types.ts';

const KEEP_MS = 3_600_000;
const known = new Map<string, { account: Promise<string>; at: number }>();

export function awsAccountOf(credentials: AwsCredentials, endpoint?: string): Promise<string> {
  const id = createHash('sha256').update(`${credentials.accessKeyId}\n${credentials.secretAccessKey}\n${credentials.sessionToken ?? ''}\n${endpoint ?? ''}`).digest('hex').slice(0, 16);
  const hit = known.get(id);
  if (hit && Date.now() - hit.at < KEEP_MS) return hit.account;
  const account = ask(credentials, endpoint).catch(() => `key-${id}`);
  known.set(id, { account, at: Date.now() });
  return account;
}

async function ask(credentials: AwsCredentials, endpoint?: string): Promise<string> {
  const { accessKeyId, secretAccessKey, sessionToken } = credentials;
  const sts = new STSClient({
    region: credentials.region || 'us-east-1', credentials: { accessKeyId, secretAccessKey, sessionToken },
    ...(endpoint ? { endpoint } : {}), maxAttempts: 2, requestHandler: { requestTimeout: 10_000, connectionTimeout: 5_000 },
  });
  try {
    const out = await sts.send(new GetCallerIdentityCommand({}));
    if (!out.Account) throw new Error('no account in the answer');
    return out.Account;
  } finally {
    sts.destroy();
  }
}
