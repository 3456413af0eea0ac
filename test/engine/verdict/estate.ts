// The estate of terraform-verdict.test.ts: main.tf beside this file, and the override that points
// the provider at moto (written in the apply directory only; the scanned repository never holds it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const MAIN_TF = readFileSync(join(import.meta.dirname, 'main.tf'), 'utf8');

/** The provider pointed at moto: an override file beside main.tf in the apply directory only (the scanned repository never holds it). */
export function motoOverride(endpoint: string): string {
  const services = ['autoscaling', 'dynamodb', 'ec2', 'ecr', 'ecs', 'elbv2', 'iam', 'kms', 'logs', 'rds', 'route53', 's3', 'sns', 'sqs', 'sts'];
  return `provider "aws" {\n  endpoints {\n${services.map((s) => `    ${s} = "${endpoint}"`).join('\n')}\n  }\n  s3_use_path_style = true\n  skip_credentials_validation = true\n  skip_requesting_account_id = true\n  skip_metadata_api_check = true\n}\n`;
}
