// Shared by the drift-core tests: an app, a signed-in owner, configs, scans and results.
import type { Test } from 'tap';
import { buildTestApp, register, bearer, type Session } from '../../helper.ts';
import type { ScanService } from '../../../plugins/scans/service.ts';
import type { ReportedDrift } from '../../../plugins/scans/schemas.ts';
import type { Plan } from '../../../core/plans.ts';

export async function world(t: Test, plan: Plan = 'enterprise') {
  const built = await buildTestApp(t);
  const { app, ctx } = built;
  const owner = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, plan);
  const scans = ctx.services.scans as ScanService;

  const as = (s: Session | string) => bearer(typeof s === 'string' ? s : s.token);
  const api = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, who: Session | string = owner) => {
    const res = await app.inject({ method, url, headers: as(who), ...(payload !== undefined ? { payload: payload as object } : {}) });
    return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, res };
  };
  async function config(name = 'acme/infra', extra: Record<string, unknown> = {}, who: Session = owner): Promise<string> {
    const r = await api('POST', '/api/repo-configs', { repositoryName: name, branch: 'main', provider: 'cloud_a', ...extra }, who);
    if (r.status !== 201) throw new Error(`config: ${JSON.stringify(r.body)}`);
    return r.body.data._id;
  }
  /** A scan of the config, completed with these drifts; returns the scan id. */
  async function scanWith(configId: string, drifts: ReportedDrift[], orgId = owner.orgId): Promise<string> {
    const scan = await scans.trigger(orgId, configId, undefined, null);
    await scans.recordScanResult(orgId, scan._id, { status: 'running' });
    await scans.recordScanResult(orgId, scan._id, { status: 'completed', drifts });
    return scan._id;
  }
  async function cli(scopes: string[], repositories?: string[], who: Session = owner) {
    const r = await api('POST', '/api/auth/cli-tokens', { name: 'test', scopes, allRepositories: !repositories, repositories: repositories ?? [] }, who);
    if (r.status !== 201) throw new Error(`cli: ${JSON.stringify(r.body)}`);
    return r.body.token as string;
  }
  return { ...built, owner, scans, api, config, scanWith, cli, register: () => register(app) };
}

export const drift = (address: string, severity: ReportedDrift['severity'] = 'high', resourceType = address.split('.')[0]): ReportedDrift =>
  ({ resourceType, resourceAddress: address, severity, changeType: 'changed', diff: { expected: 'a', actual: 'b' } });
