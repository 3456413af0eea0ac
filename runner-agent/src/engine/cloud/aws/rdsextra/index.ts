// RDS extras (issue 33): DB parameter groups.
import type { TypeReader } from '../reader.ts';
import { dbParameterGroupReader } from './parameter-group.ts';

export { RDSEXTRA_IGNORED, RDSEXTRA_RULES } from './table.ts';

export const RDSEXTRA_READERS: Record<string, TypeReader> = { aws_db_parameter_group: dbParameterGroupReader };
