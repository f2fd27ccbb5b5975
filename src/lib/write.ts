import { sql, type RawBuilder } from 'kysely';
import type { Db, Trx } from '../db/database.ts';
import { engineOf } from '../db/engine.ts';
import { onConnection, prepareQuery } from '../db/prepared.ts';
import type { EventEntities, EventType } from '../modules/events/catalog.ts';
import { insertEvents, outboxRow, wakeDispatchers, writeEvents, type OutboxRow } from '../modules/events/outbox.ts';
import * as idempotency from '../modules/idempotency/idempotency.repository.ts';
import type { Clock } from './clock.ts';
import { GroupCommit } from './group-commit.ts';
import { AppError } from './errors.ts';

/** The answer a request with an Idempotency-Key gives, as it is stored and replayed. */
export interface StoredResponse {
  status: number;
  /** The exact bytes sent (JSON text; empty for 204). */
  body: string;
  location: string | null;
}

/**
 * An Idempotency-Key held by one request (see modules/idempotency). A route passes it to the
 * service it calls, and the service to `write`: the change and the response the request will
 * answer then commit in one transaction, so after a crash a retry finds either both (and
 * replays) or neither (and runs at once).
 */
export interface IdempotencyClaim {
  readonly accountId: number;
  readonly key: string;
  readonly fingerprint: string;
  /** SHA-256 of method, URL and body bytes, stored so a retry of the same bytes replays before decoding; null without a body. */
  readonly bytesFingerprint: string | null;
  readonly expiresAt: number;
  /** The response this request answers with `result`, serialized as it will be sent. */
  respond(result: unknown): StoredResponse;
  /** The body as stored at rest: encrypted when the route's answer can hold a credential (and a secret key is configured). */
  seal(body: string): string;
  /** Set when a write has stored the response; the route then sends exactly that. */
  stored: StoredResponse | null;
}

/** What a change may do inside its transaction. */
export interface WriteContext {
  trx: Trx;
  /** The injected clock's time, read once as the transaction starts: every timestamp of the change. */
  now: number;
  /**
   * Puts an event in the outbox, in this transaction; the dispatcher is woken once it commits. The
   * payload is serialized at once; the row is written after the change, in its order among the
   * change's events (with the stored response where a claim is held: one statement on PostgreSQL).
   */
  emit<T extends EventType>(event: { accountId: number; orgId: number; type: T; entity: EventEntities[T] }): void;
  /** Deliveries became due in this transaction (a retry, a re-enabled endpoint): dispatchers are woken once it commits. */
  wakeDispatcher(): Promise<void>;
}

/**
 * Runs `change` in one transaction with its events and, given a claim, its stored response; after
 * the commit it wakes the dispatcher when deliveries were queued. Services open every write
 * transaction through here, whether a request, the CLI or a test calls them. What `change`
 * returns is what the route answers (the claim stores its serialized form), so a service returns
 * its API view from inside the change.
 */
export type Write = <T>(claim: IdempotencyClaim | null, change: (w: WriteContext) => Promise<T>) => Promise<T>;

function inUse(): AppError {
  return new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is in progress; retry later.');
}

export function createWrite(deps: { db: Db; clock: Clock; wakeDispatcher: () => void }): Write {
  // SQLite: the writes waiting for its one connection share a commit (group-commit.ts).
  const group = GroupCommit.of(deps.db);
  const transaction = <T>(work: (trx: Trx) => Promise<T>): Promise<T> => (group ? group.run(work) : deps.db.transaction().execute(work));
  return async (claim, change) => {
    let wake = false;
    let response: StoredResponse | null = null;
    const result = await transaction(async (trx) => {
      onConnection(trx, deps.db);
      const now = deps.clock.now();
      if (claim) await holdKey(trx, claim, now);
      const events: OutboxRow[] = [];
      const value = await change({
        trx,
        now,
        emit: (event) => {
          wake = true;
          events.push(outboxRow({ ...event, now }));
        },
        wakeDispatcher: () => {
          wake = true;
          return wakeDispatchers(trx);
        },
      });
      if (claim) response = await storeResponse(trx, claim, claim.respond(value), now, events);
      // The last statement: where the engine can, the commit goes with it (engine.ts commitMarker).
      else if (events.length > 0) await lastStatement(trx, insertEvents(trx, events)).execute();
      return value;
    });
    if (claim) claim.stored = response;
    if (wake) deps.wakeDispatcher();
    return result;
  };
}

function lastStatement<Q extends { modifyEnd(modifier: RawBuilder<unknown>): Q }>(trx: Trx, query: Q): Q {
  const marker = engineOf(trx).commitMarker;
  return marker === null ? query : query.modifyEnd(sql.raw(marker));
}

/**
 * Makes the transaction the key's only user: another transaction holding it (PostgreSQL, any
 * process) or a response stored meanwhile means a concurrent duplicate, which is refused.
 */
async function holdKey(trx: Trx, claim: IdempotencyClaim, now: number): Promise<void> {
  const { held, row: existing } = await idempotency.holdAndFindKey(trx, claim.accountId, claim.key);
  if (!held) throw inUse();
  if (!existing) return;
  if (idempotency.isLive(existing, now)) throw inUse();
  await idempotency.deleteKey(trx, existing.id);
}

/**
 * The stored answer with the write's one event, in one statement that also commits (engines with
 * multi-table statements and a commit marker: PostgreSQL), built and compiled once: most writes
 * emit exactly one event. A key already stored fails it (see idempotency.insertResponse).
 */
const storeWithOneEvent = prepareQuery(
  (
    db,
    event_public_id: string,
    event_type: string,
    event_org_id: number,
    event_payload: string,
    account_id: number,
    key: string,
    request_hash: string,
    request_bytes_hash: string | null,
    response_status: number,
    response_body: string,
    location: string | null,
    created_at: number,
    expires_at: number,
  ) =>
    db
      .with('alongside', () =>
        insertEvents(db, [
          { account_id, public_id: event_public_id, event_type, org_id: event_org_id, payload: event_payload, created_at, dispatched_at: null },
        ]),
      )
      .insertInto('idempotency_keys')
      .values(idempotency.answered({ account_id, key, request_hash, request_bytes_hash, response_status, response_body, location, created_at, expires_at }))
      .modifyEnd(sql.raw(engineOf(db).commitMarker ?? '')),
);

/** Stores the response under the claim's key, with the change's events: one statement where the engine allows. */
async function storeResponse(trx: Trx, claim: IdempotencyClaim, response: StoredResponse, now: number, events: OutboxRow[]): Promise<StoredResponse> {
  const engine = engineOf(trx);
  const together = events.length > 0 && engine.multiTableStatements;
  if (events.length > 0 && !together) await writeEvents(trx, events);
  const row = {
    account_id: claim.accountId,
    key: claim.key,
    request_hash: claim.fingerprint,
    request_bytes_hash: claim.bytesFingerprint,
    response_status: response.status,
    response_body: claim.seal(response.body),
    location: response.location,
    created_at: now,
    expires_at: claim.expiresAt,
  };
  let stored: boolean;
  if (together && events.length === 1 && engine.commitMarker !== null && events[0].account_id === row.account_id && events[0].created_at === now) {
    const [e] = events;
    stored = await idempotency.storedUnlessKeyTaken(
      storeWithOneEvent.rows(trx, e.public_id, e.event_type, e.org_id, e.payload, ...idempotency.storedArgs(row)),
    );
  } else {
    stored = await idempotency.insertResponse(trx, row, { alongside: together ? insertEvents(trx, events) : undefined, last: true });
  }
  if (!stored) throw inUse();
  return response;
}
