// What the contract tests cannot derive from a manifest entry: how to make a record in
// another organization (for the cross-tenant 404), a valid body where one is needed to
// reach the handler, and routes a check does not apply to, each with its reason.
// A route with an id parameter and no entry here fails the contract test by name.
import type { App } from '../../core/app.ts';
import { bearer, type Session } from '../helper.ts';

export interface World {
  app: App['app'];
  ctx: App['ctx'];
  /** Owner of an Enterprise organization: passes every plan gate. */
  owner: Session;
  /** Owner of another Enterprise organization. */
  other: Session;
}

type Params = Record<string, string>;

/** Creates a record in `other`'s organization and returns the params that address it. */
export const crossOrg: Record<string, (w: World) => Promise<Params>> = {
  getOrganization: async (w) => ({ orgId: w.other.orgId }),
  revokeCliToken: async (w) => {
    const res = await w.app.inject({ method: 'POST', url: '/api/auth/cli-tokens', headers: bearer(w.other.token), payload: { name: 'other', scopes: ['repos:read'] } });
    return { tokenId: res.json()._id };
  },
};

/** A body that passes validation, for routes whose 404 check must reach the handler. */
export const sampleBody: Record<string, unknown> = {};

/** Checks that do not apply to a route, and why. */
export const exempt: Record<string, { crossOrg?: string; unknownId?: string }> = {
  getAvatar: { crossOrg: 'avatars are public by design (the `avatar` URL of a user)' },
};
