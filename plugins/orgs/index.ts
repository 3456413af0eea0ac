// Organization routes. This part makes the guards real (create, list, read); members,
// invitations, custom roles and audit logs come with the organizations issue.
import type { FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/context.ts';
import { createOrgService } from './service.ts';
import type { CreateOrg } from './schemas.ts';

export default definePlugin((ctx) => {
  const orgs = createOrgService(ctx);
  return {
    handlers: {
      async list(req: FastifyRequest) {
        return { organizations: await orgs.list(req.principal!.userId!) };
      },
      create: (req: FastifyRequest) => orgs.create(req.principal!.userId!, (req.body as CreateOrg).name),
      get: (req: FastifyRequest) => orgs.get(req.org!.org, req.org!.role),
    },
  };
});
