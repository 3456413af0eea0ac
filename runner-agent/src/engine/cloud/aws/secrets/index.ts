// Secrets (issue 33): Secrets Manager secrets and versions, SSM parameters.
import type { TypeReader } from '../reader.ts';
import { secretReader, secretVersionReader } from './secretsmanager.ts';
import { ssmParameterReader } from './ssm.ts';

export { SECRETS_IGNORED, SECRETS_RULES } from './table.ts';

export const SECRETS_READERS: Record<string, TypeReader> = {
  aws_secretsmanager_secret: secretReader,
  aws_secretsmanager_secret_version: secretVersionReader,
  aws_ssm_parameter: ssmParameterReader,
};
