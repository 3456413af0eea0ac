// What the API-budget tests scan: `roles` IAM roles created in moto and a folder holding their
// state (3 IAM reads per role: GetRole, ListRolePolicies, ListAttachedRolePolicies), and the
// throttling proxy in front of moto (throttle-proxy.ts). cleanup() removes all of it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { CreateRoleCommand, DeleteRoleCommand } from '@aws-sdk/client-iam';
import { clients, REGION, TRUST_POLICY } from './world.ts';
import { startThrottleProxy, type ThrottleProxy } from './throttle-proxy.ts';

export interface BudgetWorld { dir: string; proxy: ThrottleProxy; roles: number; cleanup(): Promise<void> }

export async function budgetWorld(roles: number, proxyRate: { perSecond: number; capacity: number }): Promise<BudgetWorld> {
  const c = clients();
  const tag = randomBytes(4).toString('hex');
  const names = Array.from({ length: roles }, (_, i) => `budget-${tag}-${i}`);
  const policy = JSON.stringify(TRUST_POLICY);
  const made = await Promise.all(names.map((RoleName) => c.iam.send(new CreateRoleCommand({ RoleName, AssumeRolePolicyDocument: policy }))));
  const dir = await mkdtemp(join(tmpdir(), 'budget-'));
  await writeFile(join(dir, 'main.tf'), `provider "aws" {\n  region = "${REGION}"\n}\n`);
  await writeFile(join(dir, 'terraform.tfstate'), JSON.stringify({
    version: 4, terraform_version: '1.9.0', serial: 1, lineage: tag, outputs: {},
    resources: made.map((r, i) => ({
      mode: 'managed', type: 'aws_iam_role', name: `r${i}`, provider: 'provider["registry.terraform.io/hashicorp/aws"]',
      instances: [{ schema_version: 0, attributes: {
        id: r.Role!.RoleName, name: r.Role!.RoleName, arn: r.Role!.Arn, path: '/', description: '', max_session_duration: 3600,
        assume_role_policy: policy, permissions_boundary: '', tags: {}, inline_policy: [], managed_policy_arns: [],
      } }],
    })),
  }));
  const proxy = await startThrottleProxy(c.endpoint, proxyRate);
  return {
    dir, proxy, roles,
    async cleanup() {
      await proxy.close();
      await rm(dir, { recursive: true, force: true });
      await Promise.all(names.map((RoleName) => c.iam.send(new DeleteRoleCommand({ RoleName })).catch(() => undefined)));
    },
  };
}
