// The general audit trail (SPEC "Organizations": GET /audit-logs, owner/admin; "Events" >
// "Audit trail"). Entries of the caller's organization (x-org-id, else the default one).
// Required: it also runs audit retention (SPEC "Limits": Audit retention).
import { defineManifest } from '../core/manifest.ts';
import { TrailList, TrailQuery } from '../plugins/audit-logs/schemas.ts';

export default defineManifest({
  plugin: 'audit-logs',
  prefix: '/api/audit-logs',
  reply: 'named',
  required: true,
  description: "The audit trail of the caller's organization; entries older than the plan's retention are deleted",
  routes: [
    { id: 'listAuditTrail', method: 'GET', url: '/', auth: 'bearer', orgContext: true, permission: 'org:admin',
      summary: "Audit entries of the caller's organization (x-org-id or the default one), newest first; owner or admin (org:admin); limit default 50, max 100",
      query: TrailQuery, response: { 200: TrailList }, handler: 'list' },
  ],
});
