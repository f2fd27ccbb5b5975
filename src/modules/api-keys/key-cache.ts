import type pg from 'pg';
import type { DatabaseHandle } from '../../db/database.ts';
import { AUTH_CHANNEL, AUTH_GATE, AUTH_LOCK, findKeyByHash, localAuthChanges } from './api-keys.repository.ts';

export type KeyRow = NonNullable<Awaited<ReturnType<typeof findKeyByHash>>>;

/** Keys remembered per process; past it the cache starts over (a bound, not an eviction policy: keys in use come back in one lookup). */
const MAX_ENTRIES = 10_000;
const RELISTEN_AFTER_MS = 1000;
/**
 * A cache's half of the revocation handshake (api-keys.repository.ts): let go of AUTH_LOCK, wait at
 * the revoker's gate until the revoker holds AUTH_LOCK, take AUTH_LOCK again. Four statements of one
 * simple query, so they run in this order.
 */
const lockKey = (lock: number) => `${lock}, hashtext(current_schema())`;
const HANDSHAKE = [
  `select pg_advisory_unlock_shared(${lockKey(AUTH_LOCK)})`,
  `select pg_advisory_lock_shared(${lockKey(AUTH_GATE)})`,
  `select pg_advisory_unlock_shared(${lockKey(AUTH_GATE)})`,
  `select pg_advisory_lock_shared(${lockKey(AUTH_LOCK)})`,
].join('; ');

/**
 * API keys by secret hash, so a request is authenticated without a database round trip. Exact
 * across processes: every revocation goes through `markAuthChanged`, and the cache is dropped
 * the moment that change is visible.
 * - SQLite: the version row is read through the process's own connection (an in-process read, no
 *   round trip) before the first lookup of each event-loop turn; a moved version empties the cache.
 * - PostgreSQL: a LISTEN connection empties the cache on each notification. The same connection
 *   holds a shared advisory lock while the cache is live, and on a notification lets go of it,
 *   passes the revoker's gate and takes it again (the handshake of api-keys.repository.ts): the
 *   revoker returns only when every live cache has dropped the key. During the handshake nothing
 *   is served from or kept in the cache. While not listening (starting, or reconnecting after the
 *   database went away) nothing is served from the cache: every lookup reads the row, as without
 *   a cache.
 * Unknown and revoked keys are never cached (a guessed key cannot fill memory; a revoked one is
 * refused from the row).
 */
export class KeyCache {
  readonly #database: DatabaseHandle;
  readonly #entries = new Map<string, KeyRow>();
  readonly #readVersion: (() => number) | null;
  #version = -1;
  #listening = false;
  #closed = false;
  #client: pg.PoolClient | null = null;
  #retry: NodeJS.Timeout | null = null;
  readonly #log?: { warn(obj: object, msg?: string): void };

  constructor(database: DatabaseHandle, log?: { warn(obj: object, msg?: string): void }) {
    this.#database = database;
    this.#log = log;
    const raw = database.sqlite?.raw;
    if (raw) {
      const stmt = raw.prepare('select version from auth_changes where id = 1');
      this.#readVersion = () => Number((stmt.get() as { version: number } | undefined)?.version ?? 0);
    } else {
      this.#readVersion = null;
      this.#listen();
    }
  }

  /** The key with this secret hash when the cache holds it and may answer now (no database read); undefined otherwise. */
  cached(secretHash: string): KeyRow | undefined {
    return this.#usable() ? this.#entries.get(secretHash) : undefined;
  }

  /** The key with this secret hash, revoked or not; undefined when there is none. */
  async find(secretHash: string): Promise<KeyRow | undefined> {
    const hit = this.cached(secretHash);
    if (hit) return hit;
    // The generation before the read: a change that lands during it empties the cache before the row could be kept.
    const generation = this.#generation;
    const row = await findKeyByHash(this.#database.db, secretHash);
    if (row && row.revoked_at === null && generation === this.#generation && this.#usable()) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
      this.#entries.set(secretHash, row);
    }
    return row;
  }

  /** Entries currently held (tests and metrics). */
  get size(): number {
    return this.#entries.size;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    if (this.#retry) clearTimeout(this.#retry);
    this.#entries.clear();
    const c = this.#client;
    this.#client = null;
    if (c) {
      // Destroyed, not returned to the pool: its listeners stay with it.
      c.release(true);
    }
  }

  /** Bumped whenever the cache is emptied, so a lookup racing a change never stores a stale row. */
  #generation = 0;

  #drop(): void {
    this.#entries.clear();
    this.#generation++;
  }

  #usable(): boolean {
    if (this.#readVersion) {
      // One read per event-loop turn: every request handled in this turn had arrived before the turn's
      // first check, so one that arrives after a revocation committed is checked in a later turn. A
      // revocation committed by this process in this turn forces the read.
      if (!this.#checkedThisTurn || this.#seenLocal !== localAuthChanges.count) {
        if (!this.#checkedThisTurn) setImmediate(this.#nextTurn);
        this.#checkedThisTurn = true;
        this.#seenLocal = localAuthChanges.count;
        const v = this.#readVersion();
        if (v !== this.#version) {
          this.#version = v;
          this.#drop();
        }
      }
      return true;
    }
    return this.#listening && this.#handshakes === 0;
  }

  /** Revocation handshakes under way on the LISTEN connection. */
  #handshakes = 0;

  #checkedThisTurn = false;
  #seenLocal = 0;
  readonly #nextTurn = () => {
    this.#checkedThisTurn = false;
  };

  #listen(): void {
    const pool = this.#database.pool;
    if (!pool || this.#closed) return;
    const again = () => {
      if (this.#closed || this.#retry) return;
      this.#retry = setTimeout(() => {
        this.#retry = null;
        this.#listen();
      }, RELISTEN_AFTER_MS).unref();
    };
    pool.connect().then(
      async (c) => {
        const lost = (err?: Error) => {
          if (this.#client !== c) return;
          this.#listening = false;
          this.#client = null;
          this.#drop();
          this.#log?.warn({ err }, 'API key cache lost its LISTEN connection; looking keys up until it is back');
          c.release(err ?? true);
          again();
        };
        c.on('notification', () => {
          this.#drop();
          this.#handshakes++;
          c.query(HANDSHAKE).then(
            () => {
              this.#handshakes--;
              // A lookup that read its row before the revoker committed must not be kept now.
              this.#drop();
            },
            (err: Error) => {
              this.#handshakes--;
              lost(err);
            },
          );
        });
        c.on('error', lost);
        c.on('end', () => lost());
        try {
          await c.query(`listen ${AUTH_CHANNEL}`);
          await c.query(`select pg_advisory_lock_shared(${lockKey(AUTH_LOCK)})`);
        } catch (err) {
          c.release(err as Error);
          again();
          return;
        }
        if (this.#closed) {
          c.release(true);
          return;
        }
        this.#client = c;
        this.#drop(); // anything revoked while not listening
        this.#listening = true;
      },
      (err) => {
        this.#log?.warn({ err }, 'API key cache could not LISTEN; looking keys up until it can');
        again();
      },
    );
  }
}
