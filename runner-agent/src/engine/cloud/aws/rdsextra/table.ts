// RDS extras' ignore list and severity rules (data only; see iamextra/table.ts).
import type { SeverityRule } from '../../../rules.ts';

export const RDSEXTRA_IGNORED: Record<string, string[]> = { aws_db_parameter_group: ['name_prefix', 'skip_destroy'] };

export const RDSEXTRA_RULES: SeverityRule[] = [];
