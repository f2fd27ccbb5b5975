import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { main } from '../../src/cli/main.ts';

/** What a command printed and how it exited (null: a child process ended by a signal). */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The non-empty lines of a command's output. */
export function lines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '');
}

/** The environment of commands run against one scratch database: a fresh secret key, data files in `dataDir`. */
export function cliEnv(databaseUrl: string, dataDir: string, logLevel: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    DATABASE_URL: databaseUrl,
    CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
    CUSTOPS_DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
  };
}

/** Runs a command in process through main() (its logic, output and exit code), collecting what it prints. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, env, { out: (l) => (stdout += l + '\n'), err: (l) => (stderr += l + '\n') });
  return { code, stdout, stderr };
}

/** A success that printed one JSON line and nothing on stderr: its value. */
export function jsonLine(r: CliRun, label: string): any {
  assert.equal(r.code, 0, `${label} failed: ${r.stderr}`);
  assert.equal(r.stderr, '');
  assert.equal(lines(r.stdout).length, 1, `one JSON line on stdout for ${label}`);
  return JSON.parse(r.stdout);
}

/** A failure: exit code `code` (without one, any but 0), nothing on stdout, exactly one line on stderr, matching `pattern`. */
export function assertFailed(r: CliRun, label: string, pattern: RegExp, code?: number): void {
  if (code === undefined) assert.notEqual(r.code, 0, `${label} should fail`);
  else assert.equal(r.code, code, `${label}: ${r.stderr}`);
  assert.equal(r.stdout, '');
  assert.equal(lines(r.stderr).length, 1, `one stderr line for ${label}: ${JSON.stringify(r.stderr)}`);
  assert.match(r.stderr, pattern);
}

/** The arguments of `key create` for an account and a key name, then any options. */
export function keyCreate(accountId: number | string, name: string, ...options: string[]): string[] {
  return ['key', 'create', '--account', String(accountId), '--name', name, ...options];
}
