// Optional CLI request signing (SPEC "Authentication" 4, encodings from the engine issue):
// x-cli-signature = lowercase hex HMAC-SHA256 keyed with the token over
// `timestamp:nonce:METHOD:path:bodyHash`, path as sent (query included), bodyHash the
// lowercase hex SHA-256 of the raw body ('' when none). 5-minute window; each nonce once.
import type { FastifyRequest } from 'fastify';
import { hmacHex, safeEqual, sha256Hex } from '../crypto.ts';
import { AppError } from '../errors.ts';
import type { Once } from '../once.ts';

export const SIGNING_WINDOW_MS = 5 * 60 * 1000;
export type SigningGuard = (req: FastifyRequest) => Promise<void>;

const invalid = (message: string) => new AppError('invalid_signature', { message });

export function createSigningGuard(once: Once): SigningGuard {
  return async function verifySignature(req) {
    const signature = header(req, 'x-cli-signature');
    const timestamp = header(req, 'x-cli-timestamp');
    const nonce = header(req, 'x-cli-nonce');
    if (!signature && !timestamp && !nonce) return;
    const key = req.principal?.signingKey;
    if (!key) throw invalid('Request signing is only available to CLI tokens');
    if (!signature || !timestamp || !nonce) throw invalid('Signed requests need x-cli-signature, x-cli-timestamp and x-cli-nonce');
    if (!/^\d{1,16}$/.test(timestamp) || Math.abs(Date.now() - Number(timestamp)) > SIGNING_WINDOW_MS) {
      throw invalid('Request timestamp is outside the 5-minute signing window');
    }
    if (nonce.length > 128) throw invalid('Nonce is too long');
    const expected = hmacHex(key, `${timestamp}:${nonce}:${req.method}:${req.url}:${sha256Hex(req.rawBody ?? '')}`);
    if (!safeEqual(signature.toLowerCase(), expected)) throw invalid('Request signature does not match');
    // Checked last, so a forged request cannot burn a legitimate client's nonce.
    if (!(await once.claimFor(`nonce:${req.principal?.tokenId}:${nonce}`, SIGNING_WINDOW_MS * 2))) {
      throw invalid('Nonce already used (replay rejected)');
    }
  };
}

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' && v ? v : undefined;
}
