// Shared set-up of the organization tests: users with a given role in one organization,
// written straight to the store (the invitation tests cover joining through the API).
import { newId } from '../../../core/crypto.ts';
import type { App } from '../../../core/app.ts';
import type { AuditEntry } from '../../../core/audit.ts';
import type { Permission } from '../../../core/permissions.ts';
import { bearer, register, type Session } from '../../helper.ts';

export type Built = App;
export interface Member extends Session { role: string }

/** A fresh user who is a member of orgId with the given role (built-in name or custom role id). */
export async function addMember(b: Built, orgId: string, role: string): Promise<Member> {
  const s = await register(b.app);
  await b.ctx.tenancy.addMember({ orgId, userId: s.userId, role });
  return { ...s, role };
}

/** A custom role written straight to the store. */
export async function addRole(b: Built, orgId: string, name: string, permissions: Permission[]): Promise<string> {
  const role = await b.ctx.tenancy.createRole({ orgId, name, description: '', permissions });
  return role._id;
}

export const as = (s: { token: string }) => ({ headers: bearer(s.token) });

export const DAY = 86_400_000;

/** An audit entry written straight to the store, with whatever fields the test sets. */
export function auditEntry(orgId: string | null, over: Partial<AuditEntry> = {}): AuditEntry {
  return {
    _id: newId(), orgId, action: 'member.role_changed', userId: null, method: 'PUT', route: '/api/orgs/:orgId/members/:userId',
    resourceType: 'orgs', resourceId: orgId, statusCode: 200, ipAddress: '10.0.0.1', userAgent: 'test', timestamp: new Date(), ...over,
  };
}
