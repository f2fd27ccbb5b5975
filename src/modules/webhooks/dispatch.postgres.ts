import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { RANGES_OF_NOW } from '../../db/pg-statement-names.ts';
import type { ClaimedDelivery } from './claim.repository.ts';

/**
 * The dispatcher's hot statements on PostgreSQL, each ONE statement (one round trip, its own
 * implicit transaction) where SQLite's take a transaction of four to six statements: on a busy
 * machine every round trip to the server costs a scheduling wake-up on both sides, and these run
 * for every batch of deliveries. Data-modifying CTEs see one snapshot, so each statement is as
 * atomic as the transaction it replaces. SQLite's statements are calls in this process, not round
 * trips: its versions are in dispatch.sqlite.ts (prepared once, one transaction each).
 *
 * The fan-out, the head's claim and the record of sent attempts are named and planned once per
 * connection (`RANGES_OF_NOW`, db/pg-statement-names.ts): their ranges compare with the present
 * moment only, and they are written so that the plan kept for each finds the due deliveries through
 * their index whatever it guesses of their number (test/system/named-statements.test.ts). Parsing
 * and planning them had cost the server about as much as running them
 * (docs/performance.md#the-dispatchers-statements-planned-once). The claim from one endpoint, run
 * only when the head was cut short, keeps a plan per run: without its `limit`, a plan guessing a
 * tenth of the endpoint's due rows would join them by scanning the deliveries.
 */
const ONE_PLAN = sql.raw(RANGES_OF_NOW);

/**
 * What a fan-out may claim at once, and what it claimed: its new deliveries are leased at birth
 * (no separate claim) when nothing older is waiting to be claimed, within the same caps as a claim.
 */
export interface BirthClaim {
  lockedUntil: number;
  /** Slots this process may still fill. */
  room: number;
  perEndpoint: number;
  /** Deliveries this process holds (in flight or claimed ahead), by endpoint. */
  held: ReadonlyMap<number, number>;
}

export interface FanOutResult {
  /** Events handled. */
  events: number;
  /** New deliveries leased to this process at birth, oldest first. */
  claimed: ClaimedDelivery[];
  /**
   * Nothing due is left to claim: no due delivery of an enabled endpoint was unleased before the
   * fan-out, and every delivery it made was leased at birth. A claim right after would find nothing.
   */
  complete: boolean;
}

/**
 * Fan-out: undispatched events (oldest first, rows another worker holds skipped) become one
 * delivery per enabled endpoint of their account subscribed to their type, and are marked
 * dispatched, in one statement. Given `claim`, the new deliveries are also leased to this process
 * and returned with everything the attempt needs, but only when no due delivery of an enabled
 * endpoint is waiting unleased (so nothing older is overtaken: the claim would take exactly these
 * next), each endpoint within its allowance, at most `room` in all.
 */
export async function fanOut(db: Db, now: number, batch: number, claim: BirthClaim | null): Promise<FanOutResult> {
  const heldIds = claim ? [...claim.held.keys()] : [];
  const heldCounts = heldIds.map((id) => claim!.held.get(id)!);
  const { rows } = await sql<Partial<ClaimedRow> & { n: number; unleased: number; clear: boolean }>`
    with ev as (
      select id, account_id, event_type, created_at from events
      where dispatched_at is null order by id limit ${batch} for update skip locked
    ), fan as (
      select ev.account_id, w.id as endpoint_id, ev.id as event_id, ev.event_type, ev.created_at,
        row_number() over (partition by w.id order by ev.id) as rn, row_number() over (order by ev.id, w.id) as pos
      from ev join webhook_endpoints w on w.account_id = ev.account_id and w.enabled and jsonb_exists(w.event_types::jsonb, ev.event_type)
    ), open as (
      select ${claim !== null}::boolean and (
        select d.next_attempt_at from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
        where d.next_attempt_at <= ${now}::bigint and (d.locked_until is null or d.locked_until <= ${now}::bigint) and w.enabled
        order by d.next_attempt_at limit 1
      ) is null as clear
    ), ins as (
      insert into webhook_deliveries (account_id, endpoint_id, event_id, event_type, status, attempts, next_attempt_at, created_at, locked_until)
      select f.account_id, f.endpoint_id, f.event_id, f.event_type, 'pending', 0, ${now}::bigint, f.created_at,
        case when open.clear and f.pos <= ${claim?.room ?? 0}::int and f.rn <= ${claim?.perEndpoint ?? 0}::int - coalesce(held.n, 0)
          then ${claim?.lockedUntil ?? null}::bigint end
      from fan f cross join open
      left join unnest(${heldIds}::bigint[], ${heldCounts}::int[]) as held(endpoint_id, n) on held.endpoint_id = f.endpoint_id
      order by f.event_id, f.endpoint_id
      on conflict (event_id, endpoint_id) do nothing
      returning id, account_id, endpoint_id, event_id, event_type, next_trigger, attempts, is_test, next_attempt_at, locked_until
    ), done as (
      update events e set dispatched_at = ${now}::bigint from ev where e.id = ev.id
    ), stats as (
      select (select count(*)::int from ev) as n, (select count(*)::int from ins where locked_until is null) as unleased, (select clear from open) as clear
    ), claimed as (
      select i.id, i.account_id, i.endpoint_id, i.event_type, i.next_trigger, i.attempts, i.is_test, i.next_attempt_at,
        w.url, w.secret_encrypted, w.previous_secret_encrypted, w.previous_secret_expires_at, e.public_id, e.payload
      from ins i join webhook_endpoints w on w.id = i.endpoint_id join events e on e.id = i.event_id
      where i.locked_until is not null
    )
    select ${CLAIMED_OUT}, stats.n, stats.unleased, stats.clear from stats left join claimed on true ${ONE_PLAN}`.execute(db);
  const claimed = rows.filter((r) => r.id !== null && r.id !== undefined) as unknown as ClaimedRow[];
  const first = rows[0];
  return { events: first?.n ?? 0, claimed: inOrder(claimed), complete: Boolean(first?.clear) && (first?.unleased ?? 0) === 0 };
}

/** What a claim returns beside the deliveries: whether the head was cut short or rows were left for a full endpoint. */
export interface HeadClaim {
  claimed: ClaimedDelivery[];
  headRows: number;
  refused: number;
}

const CLAIMED_COLUMNS = sql`d.id, d.account_id, d.endpoint_id, d.event_type, d.next_trigger, d.attempts, d.is_test, d.next_attempt_at,
  w.url, w.secret_encrypted, w.previous_secret_encrypted, w.previous_secret_expires_at, e.public_id, e.payload`;

/** The same columns read back from a CTE named `claimed` (listed: a named statement's result never changes shape). */
const CLAIMED_OUT = sql`claimed.id, claimed.account_id, claimed.endpoint_id, claimed.event_type, claimed.next_trigger, claimed.attempts,
  claimed.is_test, claimed.next_attempt_at, claimed.url, claimed.secret_encrypted, claimed.previous_secret_encrypted,
  claimed.previous_secret_expires_at, claimed.public_id, claimed.payload`;

type ClaimedRow = ClaimedDelivery & { next_attempt_at: number };

function inOrder(rows: ClaimedRow[]): ClaimedDelivery[] {
  rows.sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.id - b.id);
  return rows.map(({ next_attempt_at: _, ...d }) => d);
}

/**
 * The oldest due deliveries of enabled endpoints (at most `headLimit` rows looked at, locked
 * rows skipped), each endpoint taking at most its allowance (`perEndpoint` less what this process
 * already holds of it), at most `room` in all: leased and returned with everything the attempt
 * needs, in one statement.
 */
export async function claimHead(
  db: Db,
  now: number,
  lockedUntil: number,
  limits: { headLimit: number; room: number; perEndpoint: number; held: ReadonlyMap<number, number> },
): Promise<HeadClaim> {
  const heldIds = [...limits.held.keys()];
  const heldCounts = heldIds.map((id) => limits.held.get(id)!);
  const { rows } = await sql<Partial<ClaimedRow> & { head_rows: number; refused: number }>`
    with head as (
      select d.id, d.endpoint_id, d.next_attempt_at from webhook_deliveries d
      join webhook_endpoints w on w.id = d.endpoint_id
      where d.next_attempt_at <= ${now}::bigint and (d.locked_until is null or d.locked_until <= ${now}::bigint) and w.enabled
      order by d.next_attempt_at, d.id limit ${limits.headLimit}
      for update of d skip locked
    ), ranked as (
      select h.id, h.next_attempt_at,
        row_number() over (partition by h.endpoint_id order by h.next_attempt_at, h.id) as rn,
        ${limits.perEndpoint}::int - coalesce(held.n, 0) as allowance
      from head h left join unnest(${heldIds}::bigint[], ${heldCounts}::int[]) as held(endpoint_id, n) on held.endpoint_id = h.endpoint_id
    ), chosen as (
      select id from ranked where rn <= allowance order by next_attempt_at, id limit ${limits.room}
    ), claimed as (
      update webhook_deliveries d set locked_until = ${lockedUntil}::bigint
      from chosen c, webhook_endpoints w, events e
      where d.id = c.id and w.id = d.endpoint_id and e.id = d.event_id
      returning ${CLAIMED_COLUMNS}
    ), stats as (
      select count(*)::int as head_rows, (count(*) filter (where rn > allowance))::int as refused from ranked
    )
    select ${CLAIMED_OUT}, stats.head_rows, stats.refused from stats left join claimed on true ${ONE_PLAN}`.execute(db);
  const claimed = rows.filter((r) => r.id !== null && r.id !== undefined) as unknown as ClaimedRow[];
  return { claimed: inOrder(claimed), headRows: rows[0]?.head_rows ?? 0, refused: rows[0]?.refused ?? 0 };
}

/** Up to `want` due deliveries of one endpoint, from its own index range (its backlog is not scanned), leased in one statement. */
export async function claimFromEndpoint(db: Db, endpointId: number, now: number, lockedUntil: number, want: number): Promise<ClaimedDelivery[]> {
  const { rows } = await sql<ClaimedRow>`
    with chosen as (
      select d.id from webhook_deliveries d
      where d.endpoint_id = ${endpointId} and d.next_attempt_at <= ${now}::bigint and (d.locked_until is null or d.locked_until <= ${now}::bigint)
      order by d.next_attempt_at, d.id limit ${want}
      for update skip locked
    )
    update webhook_deliveries d set locked_until = ${lockedUntil}::bigint
    from chosen c, webhook_endpoints w, events e
    where d.id = c.id and w.id = d.endpoint_id and e.id = d.event_id and w.enabled
    returning ${CLAIMED_COLUMNS}`.execute(db);
  return inOrder(rows);
}

/** A successful attempt of a claimed delivery, with the attempt count seen at the claim. */
export interface SentRecord {
  deliveryId: number;
  accountId: number;
  /** Attempts before this one, as claimed: the write applies only if nobody has recorded one since. */
  previousAttempts: number;
  trigger: 'scheduled' | 'manual';
  statusCode: number;
  responseBody: string | null;
  durationMs: number;
  requestedAt: number;
}

/**
 * Records successful attempts in one statement: each delivery marked sent (only where its attempt
 * count is still the claimed one), its attempt logged, and its endpoint's failure streak ended.
 * Returns the ids written; the caller records the rest the general way (they changed meanwhile,
 * or were deleted with their endpoint).
 */
export async function recordSent(db: Db, items: SentRecord[]): Promise<Set<number>> {
  const col = <T>(pick: (r: SentRecord) => T) => items.map(pick);
  const { rows } = await sql<{ id: number }>`
    with v as (
      select id, account_id, attempt_number, trigger, status_code, response_body, duration_ms, requested_at from unnest(
        ${col((r) => r.deliveryId)}::bigint[], ${col((r) => r.accountId)}::bigint[], ${col((r) => r.previousAttempts + 1)}::int[],
        ${col((r) => r.trigger)}::text[], ${col((r) => r.statusCode)}::int[], ${col((r) => r.responseBody)}::text[],
        ${col((r) => r.durationMs)}::int[], ${col((r) => r.requestedAt)}::bigint[]
      ) as v(id, account_id, attempt_number, trigger, status_code, response_body, duration_ms, requested_at)
    ), u as (
      update webhook_deliveries d set status = 'sent', attempts = v.attempt_number, next_attempt_at = null, response_status = v.status_code,
        error = null, duration_ms = v.duration_ms, last_attempt_at = v.requested_at, next_trigger = null, locked_until = null
      from v where d.id = v.id and d.attempts = v.attempt_number - 1
      returning d.id, d.endpoint_id
    ), logged as (
      insert into webhook_attempts (account_id, delivery_id, attempt_number, trigger, status_code, error, response_body, duration_ms, requested_at)
      select v.account_id, v.id, v.attempt_number, v.trigger, v.status_code, null, v.response_body, v.duration_ms, v.requested_at
      from v join u on u.id = v.id order by v.id
    ), healthy as (
      update webhook_endpoints w set failing_since = null where w.id in (select endpoint_id from u) and w.failing_since is not null
    )
    select id from u`.execute(db);
  return new Set(rows.map((r) => Number(r.id)));
}
