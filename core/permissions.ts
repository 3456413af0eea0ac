// CLI scopes, custom-role permission slugs and the built-in roles (SPEC "User and tokens",
// "Organization, members, invitations"). The names are exact.
export const CLI_SCOPES = [
  'repos:read', 'repos:write', 'scans:read', 'scans:trigger',
  'drifts:read', 'drifts:write', 'runners:read', 'runners:manage',
] as const;
export type CliScope = (typeof CLI_SCOPES)[number];

export const PERMISSIONS = [
  'repos:read', 'repos:write', 'scans:read', 'scans:write', 'drifts:read', 'drifts:write',
  'discovery:read', 'discovery:write', 'drift-watch:read', 'drift-watch:write',
  'guardrails:read', 'guardrails:write', 'runners:read', 'runners:write',
  'integrations:read', 'integrations:write', 'widgets:read', 'widgets:write',
  'export:csv', 'org:read', 'org:members', 'org:admin',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const BUILT_IN_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type BuiltInRole = (typeof BUILT_IN_ROLES)[number];
export const isBuiltInRole = (r: string): r is BuiltInRole => BUILT_IN_ROLES.includes(r as BuiltInRole);

const READ = PERMISSIONS.filter((p) => p.endsWith(':read'));
// Members do the day-to-day work but do not manage people, integrations or runners.
const MEMBER_DENIED: Permission[] = ['org:members', 'org:admin', 'integrations:write', 'runners:write'];

export const ROLE_PERMISSIONS: Record<BuiltInRole, ReadonlySet<Permission>> = {
  owner: new Set(PERMISSIONS),
  admin: new Set(PERMISSIONS),
  member: new Set(PERMISSIONS.filter((p) => !MEMBER_DENIED.includes(p))),
  viewer: new Set(READ),
};

