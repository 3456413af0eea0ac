// Developer tools' ignore list and severity rules (data only; see iamextra/table.ts).
import type { SeverityRule } from '../../../rules.ts';

export const DEVTOOLS_IGNORED: Record<string, string[]> = {
  aws_codebuild_project: ['badge_url', 'public_project_alias', 'resource_access_role'],
  aws_codecommit_repository: ['clone_url_http', 'clone_url_ssh', 'repository_id'],
  aws_codedeploy_app: ['application_id', 'github_account_name', 'linked_to_github'],
  aws_codedeploy_deployment_group: ['deployment_group_id', 'compute_platform'],
};

export const DEVTOOLS_RULES: SeverityRule[] = [
  { id: 'codebuild-role-or-source-changed', severity: 'high', description: 'CodeBuild project service role or source changed',
    rationale: 'The build runs other code, or with other cloud permissions, than reviewed.',
    types: ['aws_codebuild_project'], changeTypes: ['changed'], attributes: ['service_role', 'source', 'source.*', 'source_version', 'secondary_sources*'] },
  { id: 'codedeploy-role-changed', severity: 'high', description: 'CodeDeploy deployment group service role changed',
    rationale: 'Deployments run with other cloud permissions than reviewed.',
    types: ['aws_codedeploy_deployment_group'], changeTypes: ['changed'], attributes: ['service_role_arn'] },
];
