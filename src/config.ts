import { isIP } from 'node:net';
import { resolve } from 'node:path';
import Type, { type StaticDecode, type TSchema } from 'typebox';
import Value from 'typebox/value';

/** Standard Webhooks schedule: 5s, 5m, 30m, 2h, 5h, 10h, 14h, 20h, 24h (10 attempts in all). */
export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400] as const;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * What every setting's schema carries besides its type: the environment variable it is read
 * from, a phrase completing "must be …" for the one-line error, and whether the raw value may be
 * echoed back in that error (URLs can hold passwords, keys are secrets).
 */
interface Setting {
  env: string;
  mustBe: string;
  description: string;
  secret?: boolean;
}

const integer = (env: string, fallback: number, min: number, max: number, description: string) =>
  Type.Integer({ env, default: fallback, minimum: min, maximum: max, mustBe: `a whole number from ${min} to ${max}`, description });

const text = (env: string, fallback: string, pattern: string, mustBe: string, description: string, secret = false) =>
  Type.String({ env, default: fallback, pattern, mustBe, description, secret });

const optionalText = (env: string, pattern: string, mustBe: string, description: string, secret = false) =>
  Type.Union([Type.Null(), Type.String({ pattern })], { env, default: null, mustBe, description, secret });

const flag = (env: string, description: string, fallback: '0' | '1' = '0') =>
  Type.Decode(
    Type.Union(
      ['0', '1', 'false', 'true', 'no', 'yes'].map((v) => Type.Literal(v)),
      { env, default: fallback, mustBe: '0 or 1', description, lowercase: true },
    ),
    (value) => value === '1' || value === 'true' || value === 'yes',
  );

/**
 * Every environment setting, in one TypeBox schema: adding a setting is one entry here (its
 * decoded value then appears on `Config` under the property's name). Values arrive as text;
 * `loadConfig` turns digit strings into numbers for integer settings, then TypeBox fills the
 * defaults, checks, and decodes.
 */
export const SettingsSchema = Type.Object({
  databaseUrl: text(
    'DATABASE_URL',
    'sqlite:./data/custops.db',
    '^(sqlite:|postgres://|postgresql://)',
    'sqlite:<path>, sqlite::memory: or postgres://…',
    'the database: SQLite file or PostgreSQL server',
    true,
  ),
  port: integer('PORT', 8080, 0, 65535, 'listen port of serve'),
  host: text('HOST', '127.0.0.1', '^\\S+$', 'a host name or address', 'listen address of serve'),
  redisUrl: optionalText('REDIS_URL', '^rediss?://', 'a redis:// or rediss:// URL', 'shared rate-limit store (in memory when unset)', true),
  secretKey: Type.Decode(
    optionalText(
      'CUSTOPS_SECRET_KEY',
      '^([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$',
      '32 bytes, as 64 hex digits or base64',
      'key encrypting webhook secrets at rest (generated into the data folder with SQLite)',
      true,
    ),
    (value): Buffer | null => (value === null ? null : decodeSecretKey(value)),
  ),
  rateLimitPerMinute: integer('CUSTOPS_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000, 'default requests per minute of an API key'),
  passwordCost: integer('CUSTOPS_PASSWORD_COST', 15, 10, 18, 'scrypt cost of new console password hashes, as log2 N (existing hashes keep theirs)'),
  webhookRetryScheduleSeconds: Type.Decode(
    text(
      'CUSTOPS_WEBHOOK_RETRY_SCHEDULE',
      DEFAULT_RETRY_SCHEDULE.join(','),
      '^\\d+(\\.\\d+)?(\\s*,\\s*\\d+(\\.\\d+)?)*$',
      'comma-separated seconds',
      'seconds between webhook delivery attempts',
    ),
    (value): readonly number[] => Object.freeze(value.split(',').map(Number)),
  ),
  webhookTimeoutMs: integer('CUSTOPS_WEBHOOK_TIMEOUT_MS', 15000, 100, 600_000, 'time-out of one webhook attempt'),
  webhookRetentionDays: integer(
    'CUSTOPS_WEBHOOK_RETENTION_DAYS',
    30,
    0,
    36_500,
    'finished webhook deliveries, their attempts and events older than this many days are purged (0 keeps them)',
  ),
  webhookEndpointConcurrency: integer(
    'CUSTOPS_WEBHOOK_ENDPOINT_CONCURRENCY',
    10,
    1,
    1000,
    'webhook requests in flight per endpoint that it always has; a healthy endpoint with a backlog may grow to 4x (docs/webhooks.md#concurrency)',
  ),
  webhookConcurrency: integer(
    'CUSTOPS_WEBHOOK_CONCURRENCY',
    100,
    1,
    100_000,
    'webhook requests in flight per process; endpoints grown past their own slots share at most half of it',
  ),
  webhookAllowPrivate: flag('CUSTOPS_WEBHOOK_ALLOW_PRIVATE', '1 allows loopback and private webhook targets (development and tests only)'),
  idempotencyTtlHours: integer('CUSTOPS_IDEMPOTENCY_TTL_HOURS', 24, 1, 24 * 365, 'how long idempotency keys are kept'),
  logLevel: Type.Union(
    LOG_LEVELS.map((l) => Type.Literal(l)),
    { env: 'LOG_LEVEL', default: 'info', mustBe: `one of ${LOG_LEVELS.join(', ')}`, description: 'pino log level' },
  ),
  dataDir: Type.Decode(
    optionalText('CUSTOPS_DATA_DIR', '.', 'a folder', 'folder of the secret key generated in SQLite mode (default: beside the database file)'),
    (value): string | null => (value === null ? null : resolve(value)),
  ),
  // serve keeps two of its connections for LISTEN (webhook outbox, API key revocations): below 3 nothing would be left for queries.
  pgPoolSize: integer('CUSTOPS_PG_POOL_SIZE', 10, 3, 1000, 'PostgreSQL connections per process (serve keeps two for LISTEN, worker one)'),
  trustProxy: Type.Decode(
    optionalText(
      'CUSTOPS_TRUST_PROXY',
      '^[0-9A-Fa-f:.,/\\s]+$',
      'comma-separated IP addresses or CIDRs',
      'proxies whose X-Forwarded-For is believed (the client IP in request logs); none when unset',
    ),
    (value): readonly string[] => Object.freeze(parseTrustProxy(value)),
  ),
  // Dependencies and clients that fail or stall (docs/operations.md, "Faults").
  dbConnectTimeoutMs: integer(
    'CUSTOPS_DB_CONNECT_TIMEOUT_MS',
    1500,
    100,
    600_000,
    'PostgreSQL: connecting or waiting for a pooled connection gives up after this (a 503, not a hang)',
  ),
  dbStatementTimeoutMs: integer('CUSTOPS_DB_STATEMENT_TIMEOUT_MS', 30_000, 0, 86_400_000, 'PostgreSQL: statement time-out, 0 for none (migrate has none)'),
  sqliteBusyTimeoutMs: integer('CUSTOPS_SQLITE_BUSY_TIMEOUT_MS', 5000, 0, 600_000, "SQLite: how long a write waits for another process's lock"),
  sqliteCacheMb: integer('CUSTOPS_SQLITE_CACHE_MB', 16, 1, 65_536, "SQLite: the connection's page cache, in MiB (docs/operations.md#memory)"),
  sqliteCheckpointThread: flag(
    'CUSTOPS_SQLITE_CHECKPOINT_THREAD',
    'SQLite: serve and worker copy the write-ahead log back on a thread of their own while writes keep growing it (0: inside commits, as SQLite does by default)',
    '1',
  ),
  idleReleaseSeconds: integer(
    'CUSTOPS_IDLE_RELEASE_S',
    5,
    0,
    3600,
    "serve and worker: after this many seconds with the event loop under 2 % busy, V8's unused heap is handed back to the system (0: never; docs/operations.md#memory)",
  ),
  redisTimeoutMs: integer('CUSTOPS_REDIS_TIMEOUT_MS', 50, 1, 60_000, 'time budget of one rate-limit call to Redis; beyond it the process limits locally'),
  httpHeadersTimeoutMs: integer('CUSTOPS_HTTP_HEADERS_TIMEOUT_MS', 10_000, 1000, 600_000, 'the request head must arrive within this'),
  httpRequestTimeoutMs: integer('CUSTOPS_HTTP_REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000, 'the whole request (head and body) must arrive within this'),
  httpKeepAliveTimeoutMs: integer('CUSTOPS_HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 1000, 3_600_000, 'an idle kept-alive connection closes after this'),
  metricsToken: optionalText(
    'CUSTOPS_METRICS_TOKEN',
    '^[\\x21-\\x7e]{16,}$',
    'at least 16 printable characters without spaces',
    'bearer token /metrics requires (unset: /metrics is 404)',
    true,
  ),
  consoleRateLimitPerMinute: integer('CUSTOPS_CONSOLE_RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000, 'requests per minute of each signed-in console user'),
  cookieSecure: flag('CUSTOPS_COOKIE_SECURE', '1 marks the console session cookie Secure even over plain HTTP (behind a TLS proxy)'),
});

/** Comma-separated IP addresses or CIDRs (IPv4 or IPv6); a typo stops the start. */
function parseTrustProxy(raw: string | null): string[] {
  const list = (raw ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const entry of list) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    if (!family || extra !== undefined || (bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > max))) {
      throw new ConfigError('CUSTOPS_TRUST_PROXY', `must be comma-separated IP addresses or CIDRs, got "${entry}"`);
    }
  }
  return list;
}

/** Settings decoded once at start-up from the environment (and CLI flags), then frozen. */
export type Config = Readonly<StaticDecode<typeof SettingsSchema>> & {
  readonly dialect: 'sqlite' | 'postgres';
  readonly secretKeySource: 'env' | 'file' | 'none';
  readonly webhookConnectTimeoutMs: number;
};

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

export function decodeSecretKey(raw: string, variable = 'CUSTOPS_SECRET_KEY'): Buffer {
  const text = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new ConfigError(variable, 'must be 32 bytes, as 64 hex digits or base64');
  return key;
}

export interface ConfigOverrides {
  port?: number;
  host?: string;
}

type SettingSchema = TSchema & Setting & { type?: string; lowercase?: boolean };
const settings = SettingsSchema.properties as unknown as Record<string, SettingSchema>;

/** The environment's text for each setting: blank is unset, digits become numbers for integer settings. */
function readEnvironment(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(settings)) {
    const raw = env[schema.env]?.trim();
    if (raw === undefined || raw === '') continue;
    // Only plain digits become numbers: "1.5" or "1e3" stay text and fail the integer check.
    input[name] = schema.type === 'integer' && /^\d+$/.test(raw) ? Number(raw) : schema.lowercase ? raw.toLowerCase() : raw;
  }
  return input;
}

/** Decodes the environment. Throws ConfigError naming the variable on the first invalid one. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): Config {
  const input = Value.Default(SettingsSchema, readEnvironment(env));
  const [error] = Value.Errors(SettingsSchema, input);
  if (error) {
    const setting = settings[error.instancePath.split('/')[1]];
    const raw = env[setting.env];
    throw new ConfigError(setting.env, `must be ${setting.mustBe}${setting.secret ? '' : `, got "${raw}"`}`);
  }
  const decoded = Value.Decode(SettingsSchema, input);
  // Node refuses a headers time-out longer than the request time-out (the head is part of the request).
  if (decoded.httpHeadersTimeoutMs > decoded.httpRequestTimeoutMs) {
    throw new ConfigError('CUSTOPS_HTTP_HEADERS_TIMEOUT_MS', `must not exceed CUSTOPS_HTTP_REQUEST_TIMEOUT_MS (${decoded.httpRequestTimeoutMs})`);
  }
  return Object.freeze({
    ...decoded,
    ...(overrides.port === undefined ? {} : { port: overrides.port }),
    ...(overrides.host === undefined ? {} : { host: overrides.host }),
    dialect: decoded.databaseUrl.startsWith('sqlite:') ? ('sqlite' as const) : ('postgres' as const),
    secretKeySource: decoded.secretKey ? ('env' as const) : ('none' as const),
    webhookConnectTimeoutMs: 5000,
  });
}

/** One line per setting (variable, default, meaning), for `custops help`. */
export function describeSettings(): string[] {
  return Object.values(settings).map((s) => {
    const fallback = (s as { default?: unknown }).default;
    return `  ${s.env.padEnd(32)} ${s.description}${fallback === null || fallback === undefined ? '' : ` (default ${String(fallback)})`}`;
  });
}
