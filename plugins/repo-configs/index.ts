// Handlers of the repository config routes (manifests/repo-configs.ts). Workspaces and
// projects count and move configs through the hooks they offer (attachConfigs); the plugins
// keeping records of a config (scans, drifts) attach to this one's (onRemove, addStats).
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/repo-configs.ts';
import { createRepoConfigStore } from './store.ts';
import { createRepoConfigService } from './service.ts';

export default definePlugin({
  manifest,
  needs: ['workspaces', 'projects'],
  build(ctx, deps) {
    const configs = createRepoConfigStore(ctx.db);
    const service = createRepoConfigService(ctx, { configs, workspaces: deps.workspaces, projects: deps.projects });
    deps.workspaces.attachConfigs({
      countBy: (orgId) => configs.countBy(orgId, 'workspaceId'),
      countIn: (orgId, workspaceId) => configs.countInWorkspace(orgId, workspaceId),
      move: (orgId, from, to) => configs.moveWorkspace(orgId, from, to),
    });
    deps.projects.attachConfigs({
      countBy: (orgId) => configs.countBy(orgId, 'projectId'),
      countIn: (orgId, projectId) => configs.countInProject(orgId, projectId),
    });
    ctx.defineMeter('repositories', { used: (orgId) => configs.count(orgId) });
    // A config's repository is itself: the id when the organization has it.
    ctx.defineRepositoryRecord('repo-config', async (orgId, id) => ((await configs.get(orgId, id)) ? id : null));
    ctx.onOrgDelete((orgId) => configs.removeOrg(orgId));

    return {
      provides: service,
      handlers: {
        list: ({ org, query, repositories }) => service.list(org.id, repositories, query),
        get: ({ org, params }) => service.get(org.id, params.id),
        editView: ({ org, params }) => service.editView(org.id, params.id),
        create: ({ org, body }) => service.create(org.id, body),
        update: ({ org, params, body }) => service.update(org.id, params.id, body),
        remove: ({ org, params }) => service.remove(org.id, params.id),
        stats: ({ org, params }) => service.stats(org.id, params.id),
      },
    };
  },
});
