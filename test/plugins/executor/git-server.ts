// A git smart-HTTP server on loopback for clone tests: `git http-backend` (git's own CGI
// program) behind a node HTTP server, serving one bare repository with a commit on `main`.
// Every connection is counted, so a test sees whether anything reached it at all.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';

const git = (args: string[], cwd: string) => execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });

/** A bare repository `repo.git` under a fresh folder, its `main` holding main.tf. */
export function bareRepository(t: Test): string {
  const root = mkdtempSync(path.join(tmpdir(), 'git-served-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const work = path.join(root, 'work');
  mkdirSync(work);
  writeFileSync(path.join(work, 'main.tf'), 'terraform {}\n');
  git(['init', '-q', '-b', 'main'], work);
  git(['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '.'], work);
  git(['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'init'], work);
  git(['clone', '-q', '--bare', work, path.join(root, 'repo.git')], root);
  return root;
}

export interface GitServer { port: number; connections: () => number; requests: string[] }

/** Serves `root` over smart HTTP; `redirect` answers every request with a 302 to it instead. */
export async function gitServer(t: Test, root: string, opts: { redirect?: string } = {}): Promise<GitServer> {
  let connections = 0;
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (opts.redirect) { res.writeHead(302, { location: opts.redirect + (req.url ?? '') }); res.end(); return; }
    const url = new URL(req.url ?? '/', 'http://x');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        ...process.env, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: '1', PATH_INFO: url.pathname, QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method, CONTENT_TYPE: req.headers['content-type'] ?? '', REMOTE_ADDR: '127.0.0.1', GIT_CONFIG_GLOBAL: '/dev/null',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (c: Buffer) => chunks.push(c));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf('\r\n\r\n');
      const head = out.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head) {
        const i = line.indexOf(':');
        const k = line.slice(0, i).trim().toLowerCase();
        const v = line.slice(i + 1).trim();
        if (k === 'status') status = Number(v.split(' ')[0]);
        else headers[k] = v;
      }
      res.writeHead(status, headers);
      res.end(out.subarray(split + 4));
    });
  });
  server.on('connection', () => { connections++; });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  return { port: (server.address() as net.AddressInfo).port, connections: () => connections, requests };
}

/** A plain TCP listener that counts connections and closes them (stands for git://, ssh:// and other services). */
export async function tcpListener(t: Test): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = net.createServer((s) => { connections++; s.destroy(); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { port: (server.address() as net.AddressInfo).port, connections: () => connections };
}
