// Access that depends on what the body asks for (RouteSpec.gates): predictions' action `scan`
// starts a scan, so it needs what POST /api/scans/trigger needs. Decided after validation
// (a malformed body is a 400 whoever calls) and before the handler, with the org guard's
// answers: scope_denied for a CLI token without the scope, permission_denied for a role
// without the permission.
import type { preHandlerHookHandler } from 'fastify';
import { AppError } from '../errors.ts';
import type { BodyGate } from '../manifest.ts';
import type { OrgAccess } from '../tenancy/index.ts';
import type { Permission } from '../permissions.ts';
import type { OrgContext } from './principal.ts';

/** The org guard's answers (chain.ts), shared so a gate refuses in the same words. */
export const scopeDenied = (scope: string) => new AppError('scope_denied', { message: `Token lacks the required scope: ${scope}`, details: { requiredScope: scope } });
export const permissionDenied = (permission: string) =>
  new AppError('permission_denied', { message: `Your role does not grant ${permission}`, details: { requiredPermission: permission } });

export function bodyGates(gates: readonly BodyGate[]): preHandlerHookHandler {
  return async (req) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    for (const gate of gates) {
      if (body[gate.body.field] !== gate.body.equals) continue;
      const p = req.principal;
      if (gate.scope && p?.kind === 'cli' && !p.scopes?.includes(gate.scope)) throw scopeDenied(gate.scope);
      if (!req.org?.permissions.has(gate.permission)) throw permissionDenied(gate.permission);
    }
  };
}

/** RouteSpec.resumes: the flow's user's access in its organization, while they still hold the permission. */
export const resumer = (permission: Permission | undefined, access: (orgId: string, userId: string) => Promise<OrgAccess | null>) =>
  async (orgId: string, userId: string): Promise<OrgContext | null> => {
    // A route that declares no `resumes` resumes nobody.
    if (!permission) return null;
    const held = await access(orgId, userId);
    return held?.permissions.has(permission) ? { id: orgId, ...held } : null;
  };
