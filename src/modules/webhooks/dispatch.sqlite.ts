import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database.ts';
import { onConnection, prepareQuery } from '../../db/prepared.ts';
import type { ClaimedDelivery, ClaimPlan } from './claim.repository.ts';
import type { BirthClaim, FanOutResult, SentRecord } from './dispatch.postgres.ts';
import { dueUnleased } from './due.ts';

/**
 * The dispatcher's hot statements on SQLite: each compiled once and prepared once
 * (db/prepared.ts), run on the connection inside the batch's transaction. A batch's values go in
 * as one JSON array read back with `json_each`, so a statement's text is the same for 1 row or 500:
 * built by Kysely per batch (an `in` list or a `values` row per delivery, a `case` arm per
 * recorded attempt) they had cost about as much CPU as the rows they wrote, and each new length was
 * a new SQL text to prepare, pushing the API's statements out of the statement cache
 * (docs/performance.md#the-dispatchers-statements-on-sqlite-compiled-once). PostgreSQL's are in
 * dispatch.postgres.ts; the plans are the same.
 */

/** The rows of a JSON array (`json_each`'s `value`), as a statement reads a batch. */
const batch = (list: unknown) => sql`json_each(${list})`;

const UNDISPATCHED = prepareQuery((db, limit: number) =>
  db
    .selectFrom('events')
    .select(['id', 'account_id', 'event_type', 'created_at', 'public_id', 'payload'])
    .where('dispatched_at', 'is', null)
    .orderBy('id')
    .limit(limit),
);

/** One due delivery of an enabled endpoint that no process holds (due.ts). */
const DUE_UNLEASED = prepareQuery((db, now: number) => dueUnleased(db, now));

interface SubscribedEndpoint {
  id: number;
  account_id: number;
  event_types: string;
  url: string;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: number | null;
}

/** The enabled endpoints of the accounts listed (a JSON array of ids). */
const ENDPOINTS_OF = prepareQuery<[accounts: string], SubscribedEndpoint>(
  (_db, accounts) => sql`
    select id, account_id, event_types, url, secret_encrypted, previous_secret_encrypted, previous_secret_expires_at
    from webhook_endpoints where account_id in (select value from ${batch(accounts)}) and enabled = 1 order by id`,
);

/** Deliveries from `[account_id, endpoint_id, event_id, event_type, created_at, locked_until]` rows; those already there are skipped. */
const INSERT_DELIVERIES = prepareQuery<[now: number, rows: string], { id: number; event_id: number; endpoint_id: number }>(
  (_db, now, rows) => sql`
    insert into webhook_deliveries (account_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at, locked_until)
    select v.value ->> 0, v.value ->> 1, v.value ->> 2, v.value ->> 3, 'pending', 0, ${now}, v.value ->> 4, v.value ->> 5
    from ${batch(rows)} as v where true order by v.key
    on conflict (event_id, endpoint_id) do nothing
    returning id, event_id, endpoint_id`,
);

const MARK_DISPATCHED = prepareQuery<[now: number, ids: string], never>(
  (_db, now, ids) => sql`update events set dispatched_at = ${now} where id in (select value from ${batch(ids)})`,
);

/** The SQLite side of dispatch.repository.ts#fanOut: the same deliveries, leases and answer as PostgreSQL's one statement. */
export function fanOut(db: Db, now: number, limit: number, claim: BirthClaim | null): Promise<FanOutResult> {
  return db.transaction().execute(async (trx) => {
    onConnection(trx, db);
    const events = await UNDISPATCHED.rows(trx, limit);
    // Whether a due delivery of an enabled endpoint waits unleased: then the new ones queue behind it.
    const clear = claim !== null && (await DUE_UNLEASED.rows(trx, now)).length === 0;
    if (events.length === 0) return { events: 0, claimed: [], complete: clear };
    const endpoints = await ENDPOINTS_OF.rows(trx, JSON.stringify([...new Set(events.map((e) => e.account_id))]));
    const subscribed = endpoints.map((e) => ({ ...e, types: new Set(JSON.parse(e.event_types) as string[]) }));
    const taken = new Map<number, number>();
    let room = claim?.room ?? 0;
    const leased = (endpointId: number): boolean => {
      if (!clear || room <= 0) return false;
      const n = taken.get(endpointId) ?? claim!.held.get(endpointId) ?? 0;
      if (n >= claim!.perEndpoint) return false;
      taken.set(endpointId, n + 1);
      room--;
      return true;
    };
    const made = events.flatMap((ev) =>
      subscribed.filter((ep) => ep.account_id === ev.account_id && ep.types.has(ev.event_type)).map((ep) => ({ ev, ep, lease: leased(ep.id) })),
    );
    const ids = new Map<string, number>();
    if (made.length > 0) {
      const rows = made.map(({ ev, ep, lease }) => [ev.account_id, ep.id, ev.id, ev.event_type, ev.created_at, lease ? claim!.lockedUntil : null]);
      for (const r of await INSERT_DELIVERIES.rows(trx, now, JSON.stringify(rows))) ids.set(`${r.event_id}:${r.endpoint_id}`, r.id);
    }
    await MARK_DISPATCHED.rows(trx, now, JSON.stringify(events.map((e) => e.id)));
    const claimed: ClaimedDelivery[] = [];
    let unleased = 0;
    for (const { ev, ep, lease } of made) {
      const id = ids.get(`${ev.id}:${ep.id}`);
      if (id === undefined) continue; // there already (an event fanned out again after a crash)
      if (!lease) {
        unleased++;
        continue;
      }
      claimed.push({
        id,
        account_id: ev.account_id,
        endpoint_id: ep.id,
        event_type: ev.event_type,
        next_trigger: null,
        attempts: 0,
        is_test: false,
        url: ep.url,
        secret_encrypted: ep.secret_encrypted,
        previous_secret_encrypted: ep.previous_secret_encrypted,
        previous_secret_expires_at: ep.previous_secret_expires_at,
        public_id: ev.public_id,
        payload: ev.payload,
      });
    }
    claimed.sort((a, b) => a.id - b.id);
    return { events: events.length, claimed, complete: clear && unleased === 0 };
  });
}

/** The oldest due deliveries of enabled endpoints, unleased or with their lease run out. */
const HEAD = prepareQuery((db, now: number, limit: number) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select(['d.id', 'd.endpoint_id'])
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
    .where('w.enabled', '=', true)
    .orderBy('d.next_attempt_at')
    .orderBy('d.id')
    .limit(limit),
);

/** Enabled endpoints, other than the `full` ones, with due deliveries besides the `taken` ones (both JSON arrays of ids). */
const ENDPOINTS_WITH_DUE_WORK = prepareQuery<[now: number, taken: string, full: string], { id: number }>(
  (_db, now, taken, full) => sql`
    select w.id from webhook_endpoints w
    where w.enabled = 1 and w.id not in (select value from ${batch(full)})
      and exists (
        select 1 from webhook_deliveries d
        where d.endpoint_id = w.id and d.next_attempt_at <= ${now} and (d.locked_until is null or d.locked_until <= ${now})
          and d.id not in (select value from ${batch(taken)})
      )`,
);

/** Up to `limit` due deliveries of one endpoint, from its own index range, besides the `taken` ones. */
const DUE_OF_ENDPOINT = prepareQuery<[endpointId: number, now: number, taken: string, limit: number], { id: number }>(
  (_db, endpointId, now, taken, limit) => sql`
    select d.id from webhook_deliveries d
    where d.endpoint_id = ${endpointId} and d.next_attempt_at <= ${now} and (d.locked_until is null or d.locked_until <= ${now})
      and d.id not in (select value from ${batch(taken)})
    order by d.next_attempt_at, d.id limit ${limit}`,
);

const LEASE = prepareQuery<[lockedUntil: number, ids: string], never>(
  (_db, lockedUntil, ids) => sql`update webhook_deliveries set locked_until = ${lockedUntil} where id in (select value from ${batch(ids)})`,
);

/** Everything an attempt needs, for the deliveries listed (a JSON array of ids), oldest due first. */
const CLAIMED = prepareQuery<[ids: string], ClaimedDelivery>(
  (_db, ids) => sql`
    select d.id, d.account_id, d.endpoint_id, d.event_type, d.next_trigger, d.attempts, d.is_test,
      w.url, w.secret_encrypted, w.previous_secret_encrypted, w.previous_secret_expires_at, e.public_id, e.payload
    from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id join events e on e.id = d.event_id
    where d.id in (select value from ${batch(ids)})
    order by d.next_attempt_at, d.id`,
);

/**
 * The SQLite side of claim.repository.ts#claimDue, in one transaction: the oldest due rows first;
 * when those belong to endpoints already at their cap (or the head was full), the other endpoints
 * with due work, each from its own index range.
 */
export function claimDue(db: Db, now: number, leaseMs: number, plan: ClaimPlan): Promise<ClaimedDelivery[]> {
  return db.transaction().execute(async (trx) => {
    onConnection(trx, db);
    const planned = new Map(plan.inflight);
    const taken: number[] = [];
    let room = plan.room;
    let refused = false;
    const inFlightTotal = [...plan.inflight.values()].reduce((a, b) => a + b, 0);
    const headLimit = Math.min(room, plan.perEndpoint) + inFlightTotal;
    const candidates = await HEAD.rows(trx, now, headLimit);
    for (const c of candidates) {
      const n = planned.get(c.endpoint_id) ?? 0;
      if (room > 0 && n < plan.perEndpoint) {
        planned.set(c.endpoint_id, n + 1);
        taken.push(c.id);
        room--;
      } else if (room > 0) refused = true;
    }
    // A full head may hide other endpoints' work behind it, as may rows refused for a full endpoint.
    if ((refused || candidates.length === headLimit) && room > 0) {
      const full = [...planned].filter(([, n]) => n >= plan.perEndpoint).map(([id]) => id);
      const others = await ENDPOINTS_WITH_DUE_WORK.rows(trx, now, JSON.stringify(taken), JSON.stringify(full));
      for (const { id: endpointId } of others) {
        if (room <= 0) break;
        const want = Math.min(room, plan.perEndpoint - (planned.get(endpointId) ?? 0));
        const rows = await DUE_OF_ENDPOINT.rows(trx, endpointId, now, JSON.stringify(taken), want);
        for (const r of rows) taken.push(r.id);
        planned.set(endpointId, (planned.get(endpointId) ?? 0) + rows.length);
        room -= rows.length;
      }
    }
    if (taken.length === 0) return [];
    const ids = JSON.stringify(taken);
    await LEASE.rows(trx, now + leaseMs, ids);
    return CLAIMED.rows(trx, ids);
  });
}

/**
 * Marks sent each delivery of `[id, attempt_number, status_code, duration_ms, requested_at]` rows
 * whose attempt count is still the claimed one (`attempt_number - 1`). SQLite's RETURNING names the
 * updated table's columns unqualified (it sees no other table, not even `json_each`'s own `id`).
 */
const MARK_SENT = prepareQuery<[rows: string], { id: number; endpoint_id: number }>(
  (_db, rows) => sql`
    update webhook_deliveries as d set status = 'sent', attempts = v.value ->> 1, next_attempt_at = null, response_status = v.value ->> 2,
      error = null, duration_ms = v.value ->> 3, last_attempt_at = v.value ->> 4, next_trigger = null, locked_until = null
    from ${batch(rows)} as v
    where d.id = v.value ->> 0 and d.attempts = (v.value ->> 1) - 1
    returning id, endpoint_id`,
);

/** Attempts from `[account_id, delivery_id, attempt_number, trigger, status_code, response_body, duration_ms, requested_at]` rows. */
const LOG_ATTEMPTS = prepareQuery<[rows: string], never>(
  (_db, rows) => sql`
    insert into webhook_attempts (account_id, delivery_id, attempt_number, trigger, status_code, error, response_body, duration_ms, requested_at)
    select v.value ->> 0, v.value ->> 1, v.value ->> 2, v.value ->> 3, v.value ->> 4, null, v.value ->> 5, v.value ->> 6, v.value ->> 7
    from ${batch(rows)} as v order by v.key`,
);

const END_FAILING_STREAKS = prepareQuery<[endpointIds: string], never>(
  (_db, endpointIds) => sql`
    update webhook_endpoints set failing_since = null
    where id in (select value from ${batch(endpointIds)}) and failing_since is not null`,
);

/**
 * The SQLite side of dispatch.postgres.ts#recordSent, in one transaction: each delivery marked sent
 * (only where its attempt count is still the claimed one), its attempt logged, its endpoint's failure
 * streak ended. Returns the ids written; the caller records the rest the general way.
 */
export function recordSent(db: Db, items: SentRecord[]): Promise<Set<number>> {
  return db.transaction().execute(async (trx: Executor) => {
    onConnection(trx, db);
    const marked = await MARK_SENT.rows(
      trx,
      JSON.stringify(items.map((r) => [r.deliveryId, r.previousAttempts + 1, r.statusCode, r.durationMs, r.requestedAt])),
    );
    const written = new Set(marked.map((r) => r.id));
    if (written.size === 0) return written;
    const logged = items
      .filter((r) => written.has(r.deliveryId))
      .sort((a, b) => a.deliveryId - b.deliveryId)
      .map((r) => [r.accountId, r.deliveryId, r.previousAttempts + 1, r.trigger, r.statusCode, r.responseBody, r.durationMs, r.requestedAt]);
    await LOG_ATTEMPTS.rows(trx, JSON.stringify(logged));
    await END_FAILING_STREAKS.rows(trx, JSON.stringify([...new Set(marked.map((r) => r.endpoint_id))]));
    return written;
  });
}
