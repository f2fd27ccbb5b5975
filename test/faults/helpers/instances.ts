import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitUntil } from '../../webhooks/helpers/processes.ts';

const run = promisify(execFile);
/** The server binaries: CUSTOPS_PG_BIN, or the newest Debian-installed version. */
function pgBin(): string {
  if (process.env.CUSTOPS_PG_BIN) return process.env.CUSTOPS_PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (set CUSTOPS_PG_BIN)');
  return join(root, versions[0], 'bin');
}
const PG_BIN = pgBin();

/**
 * A PostgreSQL server of the test's own (initdb in a temporary folder, a free port, its own
 * socket folder): the test may stop and start it at will. The shared server is never touched.
 * PostgreSQL refuses to run as root, so as root every command runs as the `postgres` user.
 */
export interface OwnPostgres {
  port: number;
  url: string;
  start(): Promise<void>;
  /** `pg_ctl stop -m immediate`: every backend is killed at once, as in a crash or failover. */
  stopImmediately(): Promise<void>;
  destroy(): Promise<void>;
}

async function asPostgres(command: string): Promise<string> {
  const asRoot = userInfo().uid === 0;
  const { stdout } = asRoot ? await run('su', ['postgres', '-c', command]) : await run('sh', ['-c', command]);
  return stdout;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'custops-pg-'));
  const data = join(dir, 'data');
  if (userInfo().uid === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  chmodSync(dir, 0o700);
  await asPostgres(`${PG_BIN}/initdb -D ${data} -A trust -U postgres --no-sync -E UTF8 >/dev/null`);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=60`;
  const pg: OwnPostgres = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      await asPostgres(`${PG_BIN}/pg_ctl -D ${data} -o "${opts}" -l ${dir}/log -w -t 30 start >/dev/null`);
    },
    async stopImmediately() {
      await asPostgres(`${PG_BIN}/pg_ctl -D ${data} -m immediate -w stop >/dev/null`);
    },
    async destroy() {
      await asPostgres(`${PG_BIN}/pg_ctl -D ${data} -m immediate -w stop >/dev/null 2>&1 || true`).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await pg.start();
  return pg;
}

/** A Redis server of the test's own on a free port, with persistence off. */
export interface OwnRedis {
  port: number;
  url: string;
  /** SIGSTOP: the server keeps its connections but answers nothing (a hung Redis). */
  hang(): void;
  resume(): void;
  /** SIGKILL: connections are reset, new ones refused. */
  kill(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let proc: ChildProcess | null = null;
  const ping = async () => {
    try {
      const { stdout } = await run('redis-cli', ['-p', String(port), 'ping'], { timeout: 1000 });
      return stdout.trim() === 'PONG';
    } catch {
      return false;
    }
  };
  const redis: OwnRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    hang: () => proc?.kill('SIGSTOP'),
    resume: () => proc?.kill('SIGCONT'),
    async kill() {
      const p = proc;
      if (!p || p.exitCode !== null) return;
      const exited = new Promise((r) => p.once('exit', r));
      p.kill('SIGKILL');
      await exited;
      proc = null;
    },
    async start() {
      proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      await waitUntil('redis to answer', ping, 10_000, 50);
    },
    async destroy() {
      await redis.kill();
    },
  };
  await redis.start();
  return redis;
}
