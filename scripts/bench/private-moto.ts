// A moto server of the benchmark's own on a free loopback port, so its CPU time and calls are
// the benchmark's alone (the scan and reader benches both start one).
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { motoBinary, motoPing } from '../services/moto.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
  });
}

export async function startMoto(repo: string, data: string, logName: string, log: (s: string) => void): Promise<{ endpoint: string; pid: number; stop: () => void }> {
  const logs = path.join(data, 'logs');
  mkdirSync(logs, { recursive: true });
  const exe = await motoBinary({ repo, data, logs, pgPort: 0, mongoPort: 0, redisPort: 0, motoPort: 0, stripePort: 0, timeoutMs: 60_000, pgDurable: true, log });
  const port = await freePort();
  const fd = openSync(path.join(logs, logName), 'w');
  const child = spawn(exe, ['-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await motoPing(endpoint))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the benchmark moto did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { endpoint, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}
