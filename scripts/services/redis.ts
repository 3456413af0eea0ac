// Redis from Debian's package, on its own port and data dir so a system Redis is left alone.
import { mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { aptInstall, findExe, type Config } from './util.ts';

export async function redisBinary(cfg: Config): Promise<string> {
  const extra = ['/usr/bin', '/usr/sbin', '/usr/local/bin'];
  let bin = findExe('redis-server', extra);
  if (!bin) {
    await aptInstall('redis-server', cfg.log);
    bin = findExe('redis-server', extra);
  }
  if (!bin) throw new Error('redis-server is still missing after installing it');
  return bin;
}

export function redisArgs(cfg: Config): string[] {
  const dir = path.join(cfg.data, 'redis');
  mkdirSync(dir, { recursive: true });
  // Default save points are kept (and Redis saves on SIGTERM), so data survives restarts.
  return ['--port', String(cfg.redisPort), '--bind', '127.0.0.1', '--dir', dir, '--daemonize', 'no', '--logfile', ''];
}

/** Sends a raw RESP PING; true only on +PONG (something else on the port does not count). */
export function redisPing(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host, port });
    let buf = '';
    const done = (ok: boolean) => { sock.destroy(); resolve(ok); };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('error', () => done(false));
    sock.once('connect', () => sock.write('*1\r\n$4\r\nPING\r\n'));
    sock.on('data', (d) => {
      buf += d.toString();
      if (buf.includes('\r\n')) done(buf.startsWith('+PONG'));
    });
  });
}
