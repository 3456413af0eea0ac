// Runner management (B, runners:read / runners:manage), setup (setup-info, the install script
// and the agent package) and the runner agent's own routes (X-Runner-Token): heartbeat, jobs,
// jobs/status.
import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { definePlugin } from '../../core/legacy.ts';
import { sha256Hex } from '../../core/crypto.ts';
import type { Page } from '../../core/schemas.ts';
import { createRunnerStore, type Runner } from './store.ts';
import { createRunnerService, SWEEP_JOB } from './service.ts';
import { createJobStore } from './jobs-store.ts';
import { createJobService, type JobService } from './jobs.ts';
import { createSetup } from './setup.ts';
import type { CreateRunner, Heartbeat, JobStatusBody, UpdateRunner } from './schemas.ts';

type Req = FastifyRequest;
const orgId = (req: Req) => req.org!.id;
const runnerId = (req: Req) => (req.params as { runnerId: string }).runnerId;
const tokenHash = (req: Req) => sha256Hex(String(req.headers['x-runner-token']));

export default definePlugin((ctx) => {
  const store = createRunnerStore(ctx.db);
  const jobStore = createJobStore(ctx.db);
  // The runner service fails a departed runner's jobs through the job service, which needs the
  // runner service's token cache: tied here, used only after both exist.
  let jobs: JobService | undefined;
  const runners = createRunnerService(ctx, store, (gone, why) => jobs!.failHeld(gone, why));
  jobs = createJobService(ctx, store, jobStore, (r) => runners.byToken.invalidate(r.tokenHash));
  const setup = createSetup(ctx, store);
  ctx.onOrgDelete(async (id) => { await store.removeOrg(id); await jobStore.removeOrg(id); });
  ctx.services.runners = runners;
  ctx.scheduler.define(SWEEP_JOB, async () => { await runners.sweep(); });

  /** The calling agent's runner record (cached by token hash; the credential reader just loaded it). */
  async function caller(req: Req): Promise<Runner> {
    const runner = await runners.byToken.get(tokenHash(req));
    if (!runner || runner._id !== req.principal?.runnerId) throw new Error('runners: token changed during the request');
    return runner;
  }

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
        const { changed, ...ack } = await runners.heartbeat(req.principal!.runnerId!, tokenHash(req), req.body as Heartbeat);
        // The trail records a runner coming online or going busy, not every beat.
        if (changed) req.auditAction = `runner.${ack.status}`;
        else req.skipAudit = true;
        return ack;
      },
      async claimJob(req: Req) {
        const job = await jobs!.claim(await caller(req));
        // An empty poll every few seconds is not an event worth an audit entry; a claim is.
        if (job) req.auditDetails = { scanId: job._id, repositoryConfigId: job.repositoryConfig };
        else req.skipAudit = true;
        return { job };
      },
      async jobStatus(req: Req) {
        const body = req.body as JobStatusBody;
        // A result holds every drift with its before/after values: the trail keeps the count
        // (set first, so a refused report is recorded the same way).
        const drifts = body.result?.drifts;
        req.auditBody = { jobId: body.jobId, status: body.status, ...(Array.isArray(drifts) ? { driftCount: drifts.length } : {}), ...(body.error ? { error: body.error.slice(0, 500) } : {}) };
        const { changed, ...ack } = await jobs!.report(await caller(req), body);
        if (!changed) req.skipAudit = true;
        return ack;
      },
      setupInfo: (req: Req) => setup.info(req, orgId(req), runnerId(req)),
      async setupScript(req: Req, reply: FastifyReply) {
        const script = await setup.script(req, runnerId(req));
        return reply.type('text/x-shellscript; charset=utf-8').header('cache-control', 'no-store').send(script);
      },
      async agentPackage(req: Req, reply: FastifyReply) {
        const file = await setup.package(req);
        return reply.type('application/gzip').header('content-disposition', 'attachment; filename="drift-runner.tgz"').send(createReadStream(file));
      },
    },
  };
});
