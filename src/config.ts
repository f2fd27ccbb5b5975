import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Settings decoded once at start-up from the environment (and CLI flags), then frozen. */
export interface Config {
  readonly databaseUrl: string;
  readonly dialect: 'sqlite' | 'postgres';
  readonly port: number;
  readonly host: string;
  readonly redisUrl: string | null;
  /** 32 bytes that encrypt webhook signing secrets at rest; null until resolved by `loadSecretKey`. */
  readonly secretKey: Buffer | null;
  readonly secretKeySource: 'env' | 'file' | 'none';
  readonly rateLimitPerMinute: number;
  readonly webhookRetryScheduleSeconds: readonly number[];
  readonly webhookTimeoutMs: number;
  readonly webhookConnectTimeoutMs: number;
  readonly webhookAllowPrivate: boolean;
  readonly idempotencyTtlHours: number;
  readonly logLevel: string;
  readonly dataDir: string;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

/** Standard Webhooks schedule: 5s, 5m, 30m, 2h, 5h, 10h, 14h, 20h, 24h (10 attempts in all). */
export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400] as const;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '0').trim().toLowerCase();
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no', ''].includes(raw)) return false;
  throw new ConfigError(name, `must be 0 or 1, got "${env[name]}"`);
}

export function decodeSecretKey(raw: string, variable = 'CUSTOPS_SECRET_KEY'): Buffer {
  const text = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new ConfigError(variable, 'must be 32 bytes, as 64 hex digits or base64');
  return key;
}

function dialectOf(url: string): 'sqlite' | 'postgres' {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  throw new ConfigError('DATABASE_URL', `must start with sqlite: or postgres://, got "${url}"`);
}

export interface ConfigOverrides {
  port?: number;
  host?: string;
}

/** Decodes the environment. Throws ConfigError naming the variable on the first invalid one. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || 'sqlite:./data/custops.db';
  const dialect = dialectOf(databaseUrl);
  const schedule = env.CUSTOPS_WEBHOOK_RETRY_SCHEDULE?.trim();
  let webhookRetryScheduleSeconds: number[] = [...DEFAULT_RETRY_SCHEDULE];
  if (schedule) {
    const parts = schedule.split(',').map((p) => p.trim());
    if (parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) {
      throw new ConfigError('CUSTOPS_WEBHOOK_RETRY_SCHEDULE', `must be comma-separated seconds, got "${schedule}"`);
    }
    webhookRetryScheduleSeconds = parts.map(Number);
  }
  const logLevel = (env.LOG_LEVEL ?? 'info').trim();
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  const host = overrides.host ?? (env.HOST?.trim() || '127.0.0.1');
  const port = overrides.port ?? integer(env, 'PORT', 8080, 0, 65535);
  const secretRaw = env.CUSTOPS_SECRET_KEY?.trim();
  const dataDir = resolve(env.CUSTOPS_DATA_DIR?.trim() || './data');
  return Object.freeze({
    databaseUrl,
    dialect,
    port,
    host,
    redisUrl,
    secretKey: secretRaw ? decodeSecretKey(secretRaw) : null,
    secretKeySource: secretRaw ? 'env' : 'none',
    rateLimitPerMinute: integer(env, 'CUSTOPS_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    webhookRetryScheduleSeconds: Object.freeze(webhookRetryScheduleSeconds),
    webhookTimeoutMs: integer(env, 'CUSTOPS_WEBHOOK_TIMEOUT_MS', 15000, 100, 600_000),
    webhookConnectTimeoutMs: 5000,
    webhookAllowPrivate: flag(env, 'CUSTOPS_WEBHOOK_ALLOW_PRIVATE'),
    idempotencyTtlHours: integer(env, 'CUSTOPS_IDEMPOTENCY_TTL_HOURS', 24, 1, 24 * 365),
    logLevel,
    dataDir,
  });
}

/**
 * Resolves the at-rest encryption key: the environment's, or in SQLite mode one generated
 * into the data folder on first start. PostgreSQL mode refuses to start without it.
 */
export function withSecretKey(config: Config): Config {
  if (config.secretKey) return config;
  if (config.dialect === 'postgres') {
    throw new ConfigError('CUSTOPS_SECRET_KEY', 'is required with PostgreSQL (32 bytes, hex or base64)');
  }
  const file = resolve(config.dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  }
  const key = decodeSecretKey(readFileSync(file, 'utf8'), `secret key file ${file}`);
  return Object.freeze({ ...config, secretKey: key, secretKeySource: 'file' as const });
}
