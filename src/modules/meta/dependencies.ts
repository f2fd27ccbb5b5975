import { sql } from 'kysely';
import { Counter, Gauge, Registry } from 'prom-client';
import type { Db } from '../../db/database.ts';
import { databaseUnavailable } from '../../db/errors.ts';
import type { DependencyStatus } from '../../lib/dependency-status.ts';
import type { RateLimitBackend, RateLimitStore } from '../../http/rate-limit.ts';
import type { RedisRateLimitStore } from '../../http/rate-limit-redis.ts';
import { authChangeStats } from '../api-keys/api-keys.repository.ts';
import type { CheckpointerStats } from '../../db/sqlite-checkpointer.ts';

/** What this process depends on, as /readyz and /metrics report it. */
export interface Dependencies {
  db: Db;
  database: DependencyStatus;
  rateLimit: RateLimitStore;
  /** SQLite with the checkpoint thread (`serve`): its state. */
  checkpointer?: CheckpointerStats | null;
}

export interface Readiness {
  ready: boolean;
  checks: { database: 'up' | 'down'; rate_limit: RateLimitBackend };
  reason?: string;
}

const BACKENDS: RateLimitBackend[] = ['memory', 'redis', 'local_fallback'];

/**
 * Ready means the database answers a query now. Redis is reported but does not decide it: while
 * Redis is out every process limits locally and keeps serving, so taking processes out of the
 * load balancer would turn a degraded service into an outage.
 */
export async function readiness(deps: Dependencies): Promise<Readiness> {
  const checks = { database: 'up' as 'up' | 'down', rate_limit: deps.rateLimit.backend() };
  try {
    await sql`select 1`.execute(deps.db);
    return { ready: true, checks };
  } catch (err) {
    const reason = databaseUnavailable(err) ?? 'database_error';
    deps.database.failed(err, reason);
    checks.database = 'down';
    return { ready: false, checks, reason };
  }
}

function redisStatus(store: RateLimitStore): DependencyStatus | null {
  return 'status' in store ? (store as RedisRateLimitStore).status : null;
}

/** This process's view of its dependencies, read at scrape time. */
export function createDependencyRegistry(deps: Dependencies): Registry {
  const registry = new Registry();
  const statuses = () => [deps.database, redisStatus(deps.rateLimit)].filter((s): s is DependencyStatus => s !== null);
  new Gauge({
    name: 'custops_dependency_up',
    help: 'Whether the dependency answered the last time this process used it (1) or not (0).',
    labelNames: ['dependency'] as const,
    registers: [registry],
    collect() {
      for (const s of statuses()) this.set({ dependency: s.name }, s.up ? 1 : 0);
    },
  });
  new Counter({
    name: 'custops_dependency_outages_total',
    help: 'Outages of the dependency seen by this process (each starts with one warning in the log).',
    labelNames: ['dependency'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of statuses()) this.inc({ dependency: s.name }, s.outages);
    },
  });
  new Counter({
    name: 'custops_key_revocations_unacknowledged_total',
    help: "API key revocations made by this process that some other process's key cache did not acknowledge within 5 s (that cache drops the key when it reads the notification).",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(authChangeStats.unacknowledged);
    },
  });
  new Gauge({
    name: 'custops_rate_limit_backend',
    help: 'Where this process counts rate limits now (1 for the current one): memory (no Redis configured), redis, or local_fallback (Redis unavailable).',
    labelNames: ['backend'] as const,
    registers: [registry],
    collect() {
      const current = deps.rateLimit.backend();
      for (const b of BACKENDS) this.set({ backend: b }, b === current ? 1 : 0);
    },
  });
  new Counter({
    name: 'custops_rate_limit_fallback_requests_total',
    help: 'Requests this process rate-limited locally because Redis was unavailable.',
    registers: [registry],
    collect() {
      this.reset();
      const store = deps.rateLimit as Partial<RedisRateLimitStore>;
      this.inc(store.fallbackHits ?? 0);
    },
  });
  const checkpointer = deps.checkpointer;
  if (checkpointer) {
    new Gauge({
      name: 'custops_sqlite_checkpoint_thread',
      help: "SQLite: 1 while this process's checkpoint thread runs (it starts once the write-ahead log has reached 1,000 pages), 0 before it starts, after 10 s without writes (it exits until writes resume) or after it failed.",
      registers: [registry],
      collect() {
        this.set(checkpointer.running ? 1 : 0);
      },
    });
    new Gauge({
      name: 'custops_sqlite_checkpoint_thread_failed',
      help: 'SQLite: 1 if the checkpoint thread failed (the connection then checkpoints inside commits, as SQLite does by default).',
      registers: [registry],
      collect() {
        this.set(checkpointer.error === null ? 0 : 1);
      },
    });
    new Counter({
      name: 'custops_sqlite_checkpoints_total',
      help: "SQLite: checkpoints of this process's checkpoint thread that found the write-ahead log moved on.",
      registers: [registry],
      collect() {
        this.reset();
        this.inc(checkpointer.checkpoints);
      },
    });
  }
  return registry;
}
