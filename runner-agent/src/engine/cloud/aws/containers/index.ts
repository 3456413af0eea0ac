// Containers: ECR repositories, ECS clusters, services and task definitions. Here: each type's reader,
// the attributes never reported as drift (computed, write-only or Terraform-side) and the family's
// severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { ecrRepositoryReader } from './ecr.ts';
import { ecsClusterReader, ecsServiceReader, ecsTaskDefinitionReader } from './ecs.ts';

export const CONTAINERS_READERS: Record<string, TypeReader> = {
  aws_ecr_repository: ecrRepositoryReader,
  aws_ecs_cluster: ecsClusterReader,
  aws_ecs_service: ecsServiceReader,
  aws_ecs_task_definition: ecsTaskDefinitionReader,
};

export const CONTAINERS_IGNORED: Record<string, string[]> = {
  aws_ecr_repository: ['registry_id', 'repository_url', 'force_delete'],
  aws_ecs_task_definition: ['revision', 'arn_without_revision', 'skip_destroy', 'track_latest'],
  aws_ecs_service: ['force_new_deployment', 'wait_for_steady_state', 'iam_role', 'triggers'],
};

/** None of its own: the AWS-wide rules (cloud/aws/rules.ts), then the generic ones (tags-only, deleted, changed). */
export const CONTAINERS_RULES: SeverityRule[] = [];
