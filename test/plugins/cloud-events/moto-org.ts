// The setup both moto tests of cloud events share: a moto estate (test/engine/world.ts), a Pro
// organization whose cloud_a credentials point at it, a repository config over the estate's
// state, and a JSON caller of the API as the owner.
import type { Test } from 'tap';
import { createWorld, CREDENTIALS } from '../../engine/world.ts';
import { buildTestApp, register, bearer } from '../../helper.ts';

export async function motoOrganization(t: Test, repositoryName: string) {
  const world = await createWorld();
  t.teardown(() => world.cleanup());
  const built = await buildTestApp(t, { env: { DRIFT_CLOUD_A_ENDPOINT: world.c.endpoint } });
  const { app, ctx } = built;
  const owner = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'pro');
  const api = async (method: 'GET' | 'POST', url: string, payload?: object, token = owner.token) => {
    const res = await app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
    return res.json();
  };
  await api('POST', '/api/auth/cloud-a-credentials', CREDENTIALS);
  const config = (await api('POST', '/api/repo-configs', { repositoryName, branch: 'main', provider: 'cloud_a', iacPaths: ['infra'], repositoryUrl: world.repoUrl })).data._id as string;
  return { ...built, world, owner, api, config };
}
