// aws_codebuild_project: BatchGetProjects, 100 names a call per region (unknown names come back
// in projectsNotFound); the answer carries the tags. The nested blocks are written in the
// provider's shapes: source, environment (variables as a set), artifacts, vpc_config, cache.
import { BatchGetProjects$, BatchGetProjectsCommand, type BatchGetProjectsCommandOutput, type Project } from '@aws-sdk/client-codebuild';
import { chunk } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { isObject, tagMap } from '../../../values.ts';
import { answer, byRegion, str, type TypeReader } from '../reader.ts';
import { blockAs, orDefault } from '../provider-defaults.ts';
import { attrsOf, block, bool, list, num, opt, stateTags, tagList } from '../replay/kit.ts';

const NAMES_PER_CALL = 100;
const nameOf = (a: Record<string, unknown>) => str(a.name || a.id).split('/').pop() ?? '';

function projectAttributes(p: Project, state: Record<string, unknown>): LiveAttributes {
  const ss = block(state.source);
  const se = block(state.environment);
  const sa = block(state.artifacts);
  const tags = tagMap(p.tags?.map((t) => ({ Key: t.key, Value: t.value })));
  const s = p.source;
  const e = p.environment;
  const a = p.artifacts;
  return {
    name: p.name, arn: p.arn, description: p.description ?? '', service_role: p.serviceRole, build_timeout: p.timeoutInMinutes, queued_timeout: p.queuedTimeoutInMinutes,
    encryption_key: p.encryptionKey ?? '', badge_enabled: orDefault(p.badge?.badgeEnabled, state.badge_enabled, false), concurrent_build_limit: orDefault(p.concurrentBuildLimit, state.concurrent_build_limit, 0),
    source_version: p.sourceVersion ?? '', project_visibility: p.projectVisibility ?? 'PRIVATE',
    source: s ? [{ type: s.type, location: s.location ?? '', buildspec: s.buildspec ?? '', git_clone_depth: orDefault(s.gitCloneDepth, ss.git_clone_depth, 0),
      insecure_ssl: orDefault(s.insecureSsl, ss.insecure_ssl, false), report_build_status: orDefault(s.reportBuildStatus, ss.report_build_status, false) }] : [],
    environment: e ? [{
      compute_type: e.computeType, image: e.image, type: e.type, privileged_mode: orDefault(e.privilegedMode, se.privileged_mode, false), image_pull_credentials_type: e.imagePullCredentialsType ?? 'CODEBUILD',
      certificate: e.certificate ?? '', environment_variable: (e.environmentVariables ?? []).map((v) => ({ name: v.name, value: v.value ?? '', type: v.type ?? 'PLAINTEXT' })),
    }] : [],
    artifacts: a ? [{ type: a.type, location: a.location ?? '', name: a.name ?? '', path: a.path ?? '', packaging: a.packaging ?? '', namespace_type: a.namespaceType ?? '', encryption_disabled: orDefault(a.encryptionDisabled, sa.encryption_disabled, false) }] : [],
    vpc_config: p.vpcConfig?.vpcId ? [{ vpc_id: p.vpcConfig.vpcId, subnets: p.vpcConfig.subnets ?? [], security_group_ids: p.vpcConfig.securityGroupIds ?? [] }] : [],
    cache: blockAs(p.cache && { type: p.cache.type === 'NO_CACHE' ? undefined : p.cache.type, location: p.cache.location ?? '', modes: p.cache.modes ?? [] }, state.cache)
      .map((c) => ({ ...c, type: c.type ?? 'NO_CACHE' })),
    tags, tags_all: tags,
  };
}

/** The state's project back into the API's shape (the replay fake; the wire writer checks the enums). */
function fakeProject(x: Record<string, unknown>): Record<string, unknown> {
  const s = block(x.source);
  const e = block(x.environment);
  const a = block(x.artifacts);
  const v = block(x.vpc_config);
  const c = block(x.cache);
  return {
    name: nameOf(x), arn: opt(x.arn), description: opt(x.description), serviceRole: opt(x.service_role), timeoutInMinutes: num(x.build_timeout), queuedTimeoutInMinutes: num(x.queued_timeout),
    encryptionKey: opt(x.encryption_key), badge: { badgeEnabled: bool(x.badge_enabled) ?? false }, concurrentBuildLimit: num(x.concurrent_build_limit) || undefined,
    sourceVersion: opt(x.source_version), projectVisibility: opt(x.project_visibility),
    source: { type: opt(s.type) ?? 'NO_SOURCE', location: opt(s.location), buildspec: opt(s.buildspec), gitCloneDepth: num(s.git_clone_depth), insecureSsl: bool(s.insecure_ssl), reportBuildStatus: bool(s.report_build_status) },
    environment: {
      computeType: opt(e.compute_type), image: opt(e.image), type: opt(e.type), privilegedMode: bool(e.privileged_mode), certificate: opt(e.certificate),
      imagePullCredentialsType: opt(e.image_pull_credentials_type),
      environmentVariables: (Array.isArray(e.environment_variable) ? e.environment_variable : []).filter(isObject).map((ev) => ({ name: str(ev.name), value: str(ev.value), type: opt(ev.type) })),
    },
    artifacts: { type: opt(a.type) ?? 'NO_ARTIFACTS', location: opt(a.location), name: opt(a.name), path: opt(a.path), packaging: opt(a.packaging), namespaceType: opt(a.namespace_type), encryptionDisabled: bool(a.encryption_disabled) },
    vpcConfig: opt(v.vpc_id) ? { vpcId: opt(v.vpc_id), subnets: list(v.subnets), securityGroupIds: list(v.security_group_ids) } : undefined,
    cache: { type: opt(c.type) ?? 'NO_CACHE', location: opt(c.location), modes: list(c.modes) },
    tags: tagList(stateTags(x)).map((t) => ({ key: t.Key, value: t.Value })),
  };
}

const varKey = (e: unknown) => (isObject(e) ? [`${str(e.name)}=${str(e.value)}:${str(e.type) || 'PLAINTEXT'}`] : []);

export const codebuildProjectReader: TypeReader = {
  spec: { sets: { 'environment.0.environment_variable': varKey } },
  answers: [answer<{ names: string[] }>('codebuild', BatchGetProjects$, (input, world) => {
    const all = attrsOf(world, 'aws_codebuild_project');
    const known = new Set(all.map(nameOf));
    return { projects: all.filter((x) => input.names.includes(nameOf(x))).map(fakeProject), projectsNotFound: input.names.filter((n) => !known.has(n)) };
  })],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const found = new Map<string, Project>();
      for (const names of chunk([...new Set(group.map(({ item }) => nameOf(item.instance.attributes)))], NAMES_PER_CALL)) {
        const page = await ctx.send<BatchGetProjectsCommandOutput>(ctx.codebuild(region), new BatchGetProjectsCommand({ names }), 'codebuild:BatchGetProjects');
        for (const p of page.projects ?? []) if (p.name) found.set(p.name, p);
      }
      for (const { item, index } of group) {
        const p = found.get(nameOf(item.instance.attributes));
        out[index] = p ? projectAttributes(p, item.instance.attributes) : null;
      }
    }
    return out;
  },
};
