// Runner management (B, runners:read / runners:manage) and the runner agent's own routes
// (X-Runner-Token). Job claiming and job status come with the scan executor.
import type { FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/context.ts';
import { sha256Hex } from '../../core/crypto.ts';
import type { Page } from '../../core/schemas.ts';
import { createRunnerStore } from './store.ts';
import { createRunnerService, SWEEP_JOB } from './service.ts';
import type { CreateRunner, Heartbeat, UpdateRunner } from './schemas.ts';

type Req = FastifyRequest;
const orgId = (req: Req) => req.org!.id;
const runnerId = (req: Req) => (req.params as { runnerId: string }).runnerId;

export default definePlugin((ctx) => {
  const store = createRunnerStore(ctx.db);
  const runners = createRunnerService(ctx, store);
  ctx.onOrgDelete(async (id) => { await store.removeOrg(id); });
  ctx.services.runners = runners;
  ctx.scheduler.define(SWEEP_JOB, async () => { await runners.sweep(); });

  return {
    async start() {
      await ctx.scheduler.every('* * * * *', SWEEP_JOB);
    },
    handlers: {
      async list(req: Req) {
        return (await runners.list(orgId(req), req.query as Page)).runners;
      },
      create: (req: Req) => runners.create(orgId(req), req.principal?.userId ?? null, req.body as CreateRunner),
      get: (req: Req) => runners.get(orgId(req), runnerId(req)),
      update: (req: Req) => runners.update(orgId(req), runnerId(req), req.body as UpdateRunner),
      async remove(req: Req) {
        await runners.remove(orgId(req), runnerId(req));
        return { message: 'Runner deleted' };
      },
      regenerateToken: (req: Req) => runners.regenerateToken(orgId(req), runnerId(req)),
      markOffline: (req: Req) => runners.markOffline(orgId(req), runnerId(req)),
      async heartbeat(req: Req) {
        const { changed, ...ack } = await runners.heartbeat(req.principal!.runnerId!, sha256Hex(String(req.headers['x-runner-token'])), req.body as Heartbeat);
        // The trail records a runner coming online or going busy, not every beat.
        if (changed) req.auditAction = `runner.${ack.status}`;
        else req.skipAudit = true;
        return ack;
      },
    },
  };
});
