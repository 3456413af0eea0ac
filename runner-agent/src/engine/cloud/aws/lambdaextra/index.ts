// Lambda beyond the function: resource-policy permissions and function URLs, their computed
// attributes and severity rules.
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { lambdaFunctionUrlReader } from './function-url.ts';
import { lambdaPermissionReader } from './permission.ts';

export const LAMBDA_EXTRA_READERS: Record<string, TypeReader> = {
  aws_lambda_permission: lambdaPermissionReader,
  aws_lambda_function_url: lambdaFunctionUrlReader,
};

export const LAMBDA_EXTRA_IGNORED: Record<string, string[]> = {
  // statement_id_prefix is a creation argument; function_name and qualifier are the lookup keys as configured.
  aws_lambda_permission: ['statement_id_prefix', 'function_name', 'qualifier'],
  aws_lambda_function_url: ['function_arn', 'function_url', 'url_id', 'function_name', 'qualifier'],
};

export const LAMBDA_EXTRA_RULES: SeverityRule[] = [
  { id: 'lambda-url-auth-none', severity: 'critical', description: 'Lambda function URL opened without authentication (AuthType NONE)',
    rationale: 'Anyone who knows the URL can now invoke the function.',
    types: ['aws_lambda_function_url'], attributes: ['authorization_type'], becomes: ['NONE'] },
  { id: 'lambda-permission-public', severity: 'critical', description: 'Lambda permission granted to everyone (principal "*")',
    rationale: 'Any AWS account, or anyone through the function URL, may now invoke the function.',
    types: ['aws_lambda_permission'], attributes: ['principal'], becomes: ['*'] },
  { id: 'lambda-permission-condition-removed', severity: 'critical', description: 'Lambda permission lost its source ARN or source account condition',
    rationale: 'The service principal may now invoke the function on behalf of any resource or account (confused deputy).',
    types: ['aws_lambda_permission'], attributes: ['source_arn', 'source_account'], becomes: [''] },
  { id: 'lambda-permission-changed', severity: 'high', description: 'Lambda permission principal, action or conditions changed',
    rationale: 'Who may invoke or manage the function changed outside review.',
    types: ['aws_lambda_permission'], attributes: ['principal', 'action', 'source_arn', 'source_account', 'principal_org_id', 'function_url_auth_type'] },
];
