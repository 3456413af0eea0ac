// Binds an OAuth flow that links or connects something (a source-host account, an app
// installation, a tracker site) to the browser and the user that started it (issue 32, docs/security.md).
//
// The state in the provider's URL only says which flow this is: anyone who completes the
// authorize URL brings it back. So the start also hands the browser a short-lived cookie
// holding a random nonce (HttpOnly, SameSite=Lax so it rides the provider's top-level GET
// redirect, Path = the callback only, 10 minutes), and the state record keeps the nonce's
// hash with the user and session that started. The callback, a top-level navigation that
// carries no Authorization header, proves:
// - the browser: its cookie's nonce hashes to the one the state holds (another browser has
//   no cookie, or its own flow's);
// - the user: the session that started is still live (not signed out or revoked, the account
//   still there); only that user's browser received the cookie, on the authenticated start.
//   When the callback does carry a session (an Authorization header), it must be that user.
// Secure is set unless the service is reached over plain http on a loopback host (development
// and tests): a Secure cookie is not stored over http, so any other http deployment fails closed.
import { parseCookie, stringifySetCookie } from 'cookie';
import { randomToken, safeEqual, sha256Hex } from './crypto.ts';

export const BINDING_TTL_SECONDS = 600;

/** What a state record keeps of the flow's start. */
export interface BoundStart { userId: string; sessionId: string | null; nonceHash: string }
/** What the callback request shows: the binding cookie's nonce, and a session if it carries one. */
export interface CallbackEvidence { nonce: string | undefined; bearer: string | undefined }
/** The session checks the auth plugin answers (AuthService.liveSessions). */
export interface SessionCheck {
  /** The user of a valid, unrevoked access JWT; null otherwise. */
  userOfAccessToken(token: string): Promise<{ userId: string } | null>;
  /** Whether the account exists and this session of it (when named) is not signed out or revoked. */
  isLive(userId: string, sessionId: string | null): Promise<boolean>;
}
export type BindingFailure = 'browser_mismatch' | 'user_mismatch' | 'session_ended';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether the binding cookie is Secure for a service reached at this public URL. */
export function secureCookies(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  return !(url.protocol === 'http:' && LOOPBACK.test(url.hostname));
}

/**
 * One flow's cookie. `name` tells flows apart (a browser may run an add-account and an app
 * install at once); two flows of one kind in one browser: the later start wins.
 */
export function browserBinding(opts: { name: string; callbackUrl: string; publicUrl: string; ttlSeconds?: number }) {
  const path = new URL(opts.callbackUrl).pathname;
  const secure = secureCookies(opts.publicUrl);
  const ttl = opts.ttlSeconds ?? BINDING_TTL_SECONDS;
  const cookie = (value: string, maxAge: number) =>
    stringifySetCookie({ name: opts.name, value, maxAge, path, httpOnly: true, secure, sameSite: 'lax' });
  return {
    name: opts.name,
    /** A new nonce: the Set-Cookie value that gives it to the browser, and the hash the state keeps. */
    issue(): { setCookie: string; nonceHash: string } {
      const nonce = randomToken('', 32);
      return { setCookie: cookie(nonce, ttl), nonceHash: sha256Hex(nonce) };
    },
    /** The nonce this request's Cookie header carries for the flow; undefined when none. */
    read(header: string | string[] | undefined): string | undefined {
      const text = Array.isArray(header) ? header.join('; ') : header;
      if (!text) return undefined;
      const value = parseCookie(text)[opts.name];
      return value || undefined;
    },
    /** The Set-Cookie value that removes it (the callback spends the flow whatever its outcome). */
    clear: () => cookie('', 0),
  };
}
export type BrowserBinding = ReturnType<typeof browserBinding>;

/** Null when the callback comes from the browser and user that started the flow; else why not. */
export async function proveBinding(start: Partial<BoundStart>, evidence: CallbackEvidence, sessions: SessionCheck): Promise<BindingFailure | null> {
  if (!start.nonceHash || !start.userId || !evidence.nonce || !safeEqual(sha256Hex(evidence.nonce), start.nonceHash)) return 'browser_mismatch';
  if (evidence.bearer) {
    const caller = await sessions.userOfAccessToken(evidence.bearer);
    if (!caller || caller.userId !== start.userId) return 'user_mismatch';
  }
  if (!(await sessions.isLive(start.userId, start.sessionId ?? null))) return 'session_ended';
  return null;
}
