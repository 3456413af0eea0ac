// Developer tools (issue 33): CodeBuild projects, CodeCommit repositories, CodeDeploy applications and deployment groups.
import type { TypeReader } from '../reader.ts';
import { codebuildProjectReader } from './codebuild.ts';
import { codecommitRepositoryReader } from './codecommit.ts';
import { codedeployAppReader, codedeployGroupReader } from './codedeploy.ts';

export { DEVTOOLS_IGNORED, DEVTOOLS_RULES } from './table.ts';

export const DEVTOOLS_READERS: Record<string, TypeReader> = {
  aws_codebuild_project: codebuildProjectReader,
  aws_codecommit_repository: codecommitRepositoryReader,
  aws_codedeploy_app: codedeployAppReader,
  aws_codedeploy_deployment_group: codedeployGroupReader,
};
