// Embedded FerretDB (MongoDB wire protocol on PostgreSQL), built from scripts/ferretdb/ with Go.
// The build takes a minute or two the first time, so the binary is cached under <data>/bin and
// rebuilt only when the Go sources change.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { findExe, run, tcpOpen, type Config } from './util.ts';

const SOURCES = ['main.go', 'go.mod', 'go.sum'];

function sourceHash(src: string): string {
  const h = createHash('sha256');
  for (const f of SOURCES) {
    const file = path.join(src, f);
    h.update(`${f}\0`).update(existsSync(file) ? readFileSync(file) : '');
  }
  return h.digest('hex');
}

/** Path of an up-to-date ferretdb binary, building it first if the sources changed. */
export async function ferretBinary(cfg: Config): Promise<string> {
  const src = path.join(cfg.repo, 'scripts', 'ferretdb');
  const binDir = path.join(cfg.data, 'bin');
  const bin = path.join(binDir, 'ferretdb');
  const hashFile = `${bin}.sha256`;
  const stored = existsSync(hashFile) ? readFileSync(hashFile, 'utf8').trim() : '';
  if (existsSync(bin) && stored === sourceHash(src)) return bin;

  const go = findExe('go', ['/usr/local/go/bin', '/usr/lib/go/bin']);
  if (!go) throw new Error('Go is needed to build the embedded FerretDB (scripts/ferretdb) but `go` is not installed');
  mkdirSync(binDir, { recursive: true });
  const logFile = path.join(cfg.logs, 'ferretdb-build.log');
  cfg.log(`ferretdb: building ${path.relative(cfg.repo, bin) || bin} (about 1-2 minutes the first time; log ${logFile})`);
  const t0 = Date.now();
  // -buildvcs=false: the repo may be owned by another user, and VCS stamping then fails the build.
  const env = { ...process.env, GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim() };
  let out = '';
  try {
    out += await run(go, ['mod', 'tidy'], { cwd: src, env });
    // Build beside the target and rename, so a running ferretdb is never overwritten in place.
    out += await run(go, ['build', '-o', `${bin}.tmp`, '.'], { cwd: src, env });
  } catch (e) {
    writeFileSync(logFile, `${out}${(e as Error).message}\n`);
    throw new Error(`ferretdb build failed; see ${logFile}`);
  }
  writeFileSync(logFile, out);
  renameSync(`${bin}.tmp`, bin);
  // Hash after `go mod tidy`, which may have just written go.sum.
  writeFileSync(hashFile, `${sourceHash(src)}\n`);
  cfg.log(`ferretdb: built in ${((Date.now() - t0) / 1000).toFixed(0)}s`);
  return bin;
}

/** The PostgreSQL database FerretDB keeps its collections in (the service's FERRETDB_POSTGRES_URL). */
export const ferretPostgresUrl = (cfg: Config): string => `postgres://postgres@127.0.0.1:${cfg.pgPort}/ferretdb`;

export const ferretArgs = (cfg: Config): string[] => [
  '-listen', `127.0.0.1:${cfg.mongoPort}`,
  // FerretDB 1.24 can deadlock when every pooled PostgreSQL connection is busy while a
  // database is dropped or created (the drop holds its metadata lock and waits for a connection;
  // the busy ones wait for that lock). The pool is sized above what the test processes can ask
  // for at once (at most 20 connections per app, core/db.ts) and below max_connections (100).
  // plan_cache_mode: without it PostgreSQL switches FerretDB's prepared statements to a generic
  // plan after a few low-selectivity queries, and a generic plan never uses the GIN indexes
  // (core/ferret-gin.ts) that turn equality reads from table scans into index lookups.
  '-postgresql-url', `${ferretPostgresUrl(cfg)}?pool_max_conns=90&plan_cache_mode=force_custom_plan`,
  // error by default (see main.go); info or debug when chasing a problem.
  ...(process.env.DRIFT_FERRETDB_LOG_LEVEL ? ['-log-level', process.env.DRIFT_FERRETDB_LOG_LEVEL] : []),
];

/** SIGKILLs any ferretdb process listening on the port (a hung one another checkout started); true if there was one. */
export async function killFerretOnPort(port: number): Promise<boolean> {
  const pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return path.basename(argv[0] ?? '') === 'ferretdb' && argv.includes(`127.0.0.1:${port}`);
    } catch {
      return false; // gone meanwhile, or not ours to read
    }
  }).map(Number);
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 50 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  return pids.length > 0;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Answers a MongoDB `ping`: the wire protocol works and FerretDB reached PostgreSQL. */
export async function mongoPing(uri: string, port?: number): Promise<boolean> {
  if (port !== undefined && !(await tcpOpen(port))) return false; // skip the driver's selection wait
  // socketTimeoutMS: a hung FerretDB accepts the connection and never answers the ping.
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 1500, connectTimeoutMS: 1500, socketTimeoutMS: 3000 });
  try {
    await client.db('admin').command({ ping: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => undefined);
  }
}
