// The real-path events bench's estate (scripts/bench/events-path.ts): security groups created
// in the shared moto (the URL in .data/services.json) under a name suffix of this run, read back
// into a state v4 as an import would write it, committed with its HCL to a git repository in a
// temp folder (a `file://` URL the service may read with EXECUTOR_LOCAL_SOURCES).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AuthorizeSecurityGroupIngressCommand, CreateSecurityGroupCommand, DeleteSecurityGroupCommand, DescribeSecurityGroupsCommand, EC2Client,
} from '@aws-sdk/client-ec2';
import { renderPermissions } from '../../runner-agent/src/engine/tools.ts';
import { CREDENTIALS } from '../../test/engine/world.ts';

export interface Estate { repoUrl: string; statePath: string; groupIds: string[]; open(groupId: string, port: number): Promise<void>; cleanup(): Promise<void> }

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd, stdio: 'pipe' });

/** `count` security groups in moto, declared by a state in a fresh git repository. */
export async function createEstate(endpoint: string, label: string, count: number): Promise<Estate> {
  const ec2 = new EC2Client({ endpoint, region: CREDENTIALS.region, credentials: CREDENTIALS });
  const suffix = `${label}-${randomBytes(3).toString('hex')}`;
  const groupIds: string[] = [];
  for (let i = 0; i < count; i++) {
    groupIds.push((await ec2.send(new CreateSecurityGroupCommand({ GroupName: `bench-ev-${suffix}-${i}`, Description: 'events-path bench' }))).GroupId!);
  }
  const groups = (await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: groupIds }))).SecurityGroups ?? [];
  const byId = new Map(groups.map((g) => [g.GroupId!, g]));
  const resources = groupIds.map((id, i) => {
    const g = byId.get(id)!;
    return {
      mode: 'managed', type: 'aws_security_group', name: `sg_${i}`, provider: 'provider["registry.terraform.io/hashicorp/aws"]',
      instances: [{ schema_version: 1, sensitive_attributes: [], attributes: {
        id, arn: g.SecurityGroupArn, name: g.GroupName, name_prefix: '', description: g.Description, vpc_id: g.VpcId, owner_id: g.OwnerId,
        tags: {}, tags_all: {}, ingress: [], egress: renderPermissions(g.IpPermissionsEgress, id), revoke_rules_on_delete: false, timeouts: null,
      } }],
    };
  });
  const repo = mkdtempSync(path.join(os.tmpdir(), 'drift-bench-events-path-'));
  const statePath = 'terraform.tfstate';
  writeFileSync(path.join(repo, 'main.tf'), 'provider "aws" {\n  region = "us-east-1"\n}\n');
  writeFileSync(path.join(repo, statePath), JSON.stringify({ version: 4, terraform_version: '1.9.8', serial: 1, lineage: `bench-${suffix}`, outputs: {}, resources }, null, 2));
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'estate');
  return {
    repoUrl: `file://${repo}`, statePath, groupIds,
    // The out-of-band change: a rule opened on the group, outside the IaC.
    open: async (groupId, port) => {
      await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: port, ToPort: port, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
    },
    cleanup: async () => {
      for (const id of groupIds) await ec2.send(new DeleteSecurityGroupCommand({ GroupId: id })).catch(() => undefined);
      ec2.destroy();
      rmSync(repo, { recursive: true, force: true });
    },
  };
}
