// What the heartbeat reports about the machine (SPEC Runner `systemInfo`: CPU, memory, disk),
// in the shape the service's Heartbeat schema accepts. Disk is the file system of the state
// folder, where clones and the outbox live. And whether it can run provider plans (providerPlans).
import os from 'node:os';
import { statfs } from 'node:fs/promises';
import { planCapability } from './engine/index.ts';

export interface SystemInfo {
  cpu: { cores: number; model?: string; loadAverage: number[] };
  memory: { totalBytes: number; freeBytes: number };
  disk?: { totalBytes: number; freeBytes: number };
  os: string;
  hostname: string;
}

export async function systemInfo(stateDir: string): Promise<SystemInfo> {
  const cpus = os.cpus();
  const info: SystemInfo = {
    cpu: { cores: cpus.length, ...(cpus[0]?.model ? { model: cpus[0].model.trim().slice(0, 200) } : {}), loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100) },
    memory: { totalBytes: os.totalmem(), freeBytes: os.freemem() },
    os: `${os.type()} ${os.release()} ${os.arch()}`.slice(0, 200),
    hostname: os.hostname().slice(0, 255),
  };
  try {
    const fs = await statfs(stateDir);
    info.disk = { totalBytes: fs.blocks * fs.bsize, freeBytes: fs.bavail * fs.bsize };
  } catch {
    // A state folder on a file system without statfs: the rest still tells the operator something.
  }
  return info;
}

/** What the heartbeat says about provider plans (plugins/runners/schemas.ts ProviderPlans). */
export interface ProviderPlansInfo { binary: 'terraform' | 'tofu'; version: string }

/** The service's bound on the version (ProviderPlans.version): anything else would fail every heartbeat. */
const VERSION_SHAPE = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,49}$/;

/**
 * The tofu/terraform binary this runner plans with (DRIFT_TOFU_BINARY, else tofu, else terraform
 * on PATH, as the engine finds it), or null when there is none, it does not run, or its version
 * is not of the shape the service accepts (the heartbeat must never fail on it).
 */
export async function providerPlans(env: NodeJS.ProcessEnv = process.env): Promise<ProviderPlansInfo | null> {
  const found = await planCapability(env);
  if (!found || !VERSION_SHAPE.test(found.version)) return null;
  return { binary: found.name === 'tofu' ? 'tofu' : 'terraform', version: found.version };
}
