// The engine's measuring surface (package export `./tools`): what the benchmark and corpus
// scripts (scripts/bench, scripts/corpus-*.ts) and the demo drive below detectDrift: the reader
// tables, state parsing and replay, root-module parsing, the concurrency limiter and the security
// group rule renderer. Nothing in the engine imports this file: it only names what scripts use.
export { AWS_READERS } from './cloud/aws/index.ts';
export { AZURE_READERS } from './cloud/azure/index.ts';
export { GOOGLE_READERS } from './cloud/google/index.ts';
export { renderPermissions } from './cloud/aws/vpc/security-group-rules.ts';
export { stateCoverage } from './coverage.ts';
export { parseRootModule, type RootModule } from './hcl.ts';
export { mapLimit } from './limit.ts';
export { findTofu } from './plan-binary.ts';
export { replayState } from './replay.ts';
export { parseState, readStateDocument } from './state-v4.ts';
export type { StateInstance } from './types.ts';
