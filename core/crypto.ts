// Secrets at rest (AES-256-GCM), token hashing, random tokens, password hashing.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** Tokens are high-entropy, so a plain SHA-256 is enough to store them (and is fast on the hot path). */
export const sha256Hex = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');
export const hmacHex = (key: string, value: string) => createHmac('sha256', key).update(value).digest('hex');
export const randomToken = (prefix = '', bytes = 32) => prefix + randomBytes(bytes).toString('base64url');
export const newId = () => randomBytes(12).toString('hex');

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

export interface Sealer { seal(plain: string): string; open(sealed: string): string }

/** AES-256-GCM with a fresh IV per value; output `v1:iv:tag:ciphertext` in base64url. */
export function createSealer(hexKey: string): Sealer {
  const key = Buffer.from(hexKey, 'hex');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join(':');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split(':');
      if (version !== 'v1') throw new Error('Unknown sealed value version');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

// scrypt is memory-hard and built into Node: N=2^15, r=8 uses 32 MiB and about 150 ms of CPU per hash.
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/**
 * For the test suite's own process only (test/helper.ts): it hashes thousands of passwords, at
 * N=2^10. The hash string carries N, so verification reads it back whatever the setting, and a
 * service process never calls this (test/core/crypto.test.ts checks the default).
 */
export function lowerPasswordHashCostForTests(): void {
  SCRYPT.N = 1 << 10;
}
const KEY_LENGTH = 32;

function scryptAsync(password: string, salt: Buffer, params = SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, params, (err, key) => (err ? reject(err) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt') return false;
  const derived = await scryptAsync(password, Buffer.from(salt, 'base64url'), {
    N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(derived, Buffer.from(key, 'base64url'));
}

/** A hash computed for unknown emails, so login takes as long whether or not the account exists. */
export const DUMMY_PASSWORD_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
