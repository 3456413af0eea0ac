// What the heartbeat reports about the machine (SPEC Runner `systemInfo`: CPU, memory, disk),
// in the shape the service's Heartbeat schema accepts. Disk is the file system of the state
// folder, where clones and the outbox live.
import os from 'node:os';
import { statfs } from 'node:fs/promises';

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
