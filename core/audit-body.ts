// What an audit entry may keep of a request body: secrets redacted (by key, and credentials
// inside any URL), and made storable whatever the body held, because an entry the database
// refuses is a mutation missing from the trail (issue #10). FerretDB refuses keys with "."
// or a leading "$" and arrays nested directly in arrays; every database refuses NUL in keys;
// and an unbounded body would let one request write megabytes into the trail.
import { escapeKey } from './db.ts';

const REDACT = ['password', 'token', 'secret', 'key', 'authorization', 'webhookurl', 'cookie', 'csrf'];
export const REDACTED = '[REDACTED]';

/** Levels of nesting kept; deeper values are replaced by a note. */
export const AUDIT_MAX_DEPTH = 8;
/** Longest string kept whole. */
export const AUDIT_MAX_STRING = 2000;
/** Items kept of an array, and keys of an object. */
export const AUDIT_MAX_ITEMS = 100;

// scheme://userinfo@host: the userinfo (a token, or user:password) is what leaks.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi;

/** A string with the credentials of any URL in it replaced, and NUL (which no store keeps) made visible. */
export function redactText(text: string): string {
  const clean = text.replace(URL_USERINFO, `$1${REDACTED}@`).replace(/\u0000/g, '\uFFFD');
  return clean.length > AUDIT_MAX_STRING ? `${clean.slice(0, AUDIT_MAX_STRING)}…[truncated]` : clean;
}

const storableKey = (key: string) => escapeKey(key.replace(/\u0000/g, '\uFFFD'));
const isSecretKey = (key: string) => REDACT.some((r) => key.toLowerCase().includes(r));

/**
 * The body as the trail keeps it: values of sensitive keys (case-insensitive substring) and
 * credentials in URLs redacted; keys the database refuses escaped; an array inside an array
 * kept as its JSON text; depth, string length and item counts bounded.
 */
export function redact(value: unknown, depth = 0, asText = false): unknown {
  if (typeof value === 'string') return redactText(value);
  if (!value || typeof value !== 'object' || value instanceof Date) return value;
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  if (depth >= AUDIT_MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) {
    // Inside JSON text (asText) arrays may nest; as a stored value they may not.
    const items = value.slice(0, AUDIT_MAX_ITEMS).map((item) => (Array.isArray(item) && !asText
      ? redactText(jsonText(redact(item, depth + 1, true)))
      : redact(item, depth + 1, asText)));
    if (value.length > AUDIT_MAX_ITEMS) items.push(`[${value.length - AUDIT_MAX_ITEMS} more]`);
    return items;
  }
  const entries = Object.entries(value);
  const kept = entries.slice(0, AUDIT_MAX_ITEMS).map(([k, v]) => [storableKey(k), isSecretKey(k) ? REDACTED : redact(v, depth + 1, asText)]);
  if (entries.length > AUDIT_MAX_ITEMS) kept.push(['[more]', `${entries.length - AUDIT_MAX_ITEMS} more keys`]);
  return Object.fromEntries(kept);
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '[unserializable]';
  }
}
