// The built-in scan executor has no routes: it runs the scans plugin's 'scans.execute' jobs.
// Its manifest exists so operators can disable it (drift.config.json) when only self-hosted
// runners should scan.
import { defineManifest } from '../core/manifest.ts';

export default defineManifest({
  plugin: 'executor',
  prefix: '/api/executor',
  reply: 'envelope',
  description: 'Built-in scan executor (Agenda jobs, no routes)',
  routes: [],
});
