// Runner management (B, runners:read / runners:manage), setup (setup-info, the install script
// and the agent package, opened by a runner-link token) and the runner agent's own routes
// (X-Runner-Token): heartbeat, jobs, jobs/status. What the audit trail keeps of the agent's
// routes is in the manifest.
import { createReadStream } from 'node:fs';
import { definePlugin } from '../../core/plugin.ts';
import { sha256Hex } from '../../core/crypto.ts';
import { AppError } from '../../core/errors.ts';
import type { Principal } from '../../core/guards/principal.ts';
import manifest from '../../manifests/runners.ts';
import { createRunnerStore, type Runner } from './store.ts';
import { createRunnerService, createTokenCache, SWEEP_JOB } from './service.ts';
import { createJobStore } from './jobs-store.ts';
import { createJobService } from './jobs.ts';
import { createSetup } from './setup.ts';

export default definePlugin({
  manifest,
  needs: ['scans'],
  build(ctx, deps) {
    const store = createRunnerStore(ctx.db);
    const jobStore = createJobStore(ctx.db);
    // Both services share the token cache; the runner service fails a departed runner's jobs
    // through the job service, built first.
    const byToken = createTokenCache(ctx, store);
    const jobs = createJobService(deps.scans.execution, store, jobStore, (r) => byToken.invalidate(r.tokenHash));
    const runners = createRunnerService(ctx, store, byToken, jobs.failHeld);
    const setup = createSetup(ctx, store);
    ctx.onOrgDelete(async (id) => { await store.removeOrg(id); await jobStore.removeOrg(id); });
    ctx.scheduler.define(SWEEP_JOB, async () => { await runners.sweep(); });
    ctx.metrics.gauge('runners', 'Runners by status, every organization', ['status'], () =>
      Promise.all((['online', 'busy', 'offline'] as const).map(async (status) => ({ labels: { status }, value: await store.countWithStatus([status]) }))));

    /** The calling agent's runner record (cached by token hash; the credential reader just loaded it). */
    async function caller(principal: Principal, token: string): Promise<Runner> {
      const runner = await runners.byToken.get(sha256Hex(token));
      if (!runner || runner._id !== principal.runnerId) throw new AppError('invalid_token', { message: 'The runner token changed during the request' });
      return runner;
    }
    const agentToken = (headers: Record<string, unknown>) => String(headers['x-runner-token']);

    return {
      provides: runners,
      async start() {
        await ctx.scheduler.every('* * * * *', SWEEP_JOB);
      },
      handlers: {
        list: async ({ org, query }) => (await runners.list(org.id, query)).runners,
        create: ({ org, principal, body }) => runners.create(org.id, principal.userId ?? null, body),
        get: ({ org, params }) => runners.get(org.id, params.runnerId),
        update: ({ org, params, body }) => runners.update(org.id, params.runnerId, body),
        async remove({ org, params }) {
          await runners.remove(org.id, params.runnerId);
          return { message: 'Runner deleted' };
        },
        regenerateToken: ({ org, params }) => runners.regenerateToken(org.id, params.runnerId),
        markOffline: ({ org, params }) => runners.markOffline(org.id, params.runnerId),
        // `changed` (stripped from the answer by its schema) tells the audit rule whether to record.
        // A busy runner is told which of its jobs to stop (cancelled, or handed to another runner).
        async heartbeat({ principal, req, body }) {
          const ack = await runners.heartbeat(principal.orgId!, principal.runnerId!, sha256Hex(agentToken(req.headers)), body);
          return body.status === 'busy' ? { ...ack, cancelJobs: await jobs.toStop(await caller(principal, agentToken(req.headers))) } : ack;
        },
        claimJob: async ({ principal, req }) => ({ job: await jobs.claim(await caller(principal, agentToken(req.headers))) }),
        jobStatus: async ({ principal, req, body }) => jobs.report(await caller(principal, agentToken(req.headers)), body),
        setupInfo: ({ org, params, req }) => setup.info(req, org.id, params.runnerId),
        async setupScript({ principal, query, req, reply }) {
          const script = await setup.script(req, principal, query.token ?? '');
          return reply.type('text/x-shellscript; charset=utf-8').header('cache-control', 'no-store').send(script);
        },
        async agentPackage({ principal, reply }) {
          const file = await setup.package(principal);
          return reply.type('application/gzip').header('content-disposition', 'attachment; filename="drift-runner.tgz"').send(createReadStream(file));
        },
        async agentRuntime({ principal, query, reply }) {
          const file = await setup.runtime(principal, query.platform ?? 'linux-x64');
          return reply.type('application/gzip').header('content-disposition', 'attachment; filename="node-runtime.tgz"').send(createReadStream(file));
        },
      },
    };
  },
});
