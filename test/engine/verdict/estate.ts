// The estate of the verdict tests, in two independent halves (workload.tf, services.tf) that
// terraform-verdict-workload.test.ts and terraform-verdict-services.test.ts apply side by side
// (tap runs files in parallel): each half with provider.tf's head becomes the main.tf one test
// applies and scans. The override that points the provider at moto is written in the apply
// directory only; the scanned repository never holds it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Half = 'workload' | 'services';
export const HALVES: Half[] = ['workload', 'services'];

const read = (file: string) => readFileSync(join(import.meta.dirname, file), 'utf8');

/** The main.tf of one half: the variables and provider block, then the half's resources. */
export function mainTf(half: Half): string {
  return `${read('provider.tf')}\n${read(`${half}.tf`)}`;
}

/** The resource types a configuration declares (`resource "aws_vpc" "main"` -> aws_vpc), once each, sorted. */
export function declaredTypes(hcl: string): string[] {
  return [...new Set([...hcl.matchAll(/^resource "([a-z0-9_]+)" "[A-Za-z0-9_-]+"/gm)].map((m) => m[1]))].sort();
}

/** The provider pointed at moto: an override file beside main.tf in the apply directory only (the scanned repository never holds it). */
export function motoOverride(endpoint: string): string {
  const services = ['autoscaling', 'dynamodb', 'ec2', 'ecr', 'ecs', 'elbv2', 'iam', 'kms', 'logs', 'rds', 'route53', 's3', 'sns', 'sqs', 'sts'];
  return `provider "aws" {\n  endpoints {\n${services.map((s) => `    ${s} = "${endpoint}"`).join('\n')}\n  }\n  s3_use_path_style = true\n  skip_credentials_validation = true\n  skip_requesting_account_id = true\n  skip_metadata_api_check = true\n}\n`;
}
