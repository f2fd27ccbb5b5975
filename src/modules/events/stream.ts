import type { ServerResponse } from 'node:http';
import type { Db } from '../../db/database.ts';
import type { EventType } from './catalog.ts';

/** Events read per poll; a stream catching up sends pages of this size back to back. */
const PAGE = 100;

export interface StreamedEvent {
  id: number;
  event_type: string;
  payload: string;
}

/** The newest outbox id of an account: a stream without Last-Event-ID starts after it (new events only). */
export async function latestEventId(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The account's events after `afterId`, oldest first, optionally of some types only. */
export function eventsAfter(db: Db, accountId: number, afterId: number, types: readonly EventType[] | null): Promise<StreamedEvent[]> {
  let query = db.selectFrom('events').select(['id', 'event_type', 'payload']).where('id', '>', afterId).where('account_id', '=', accountId);
  if (types) query = query.where('event_type', 'in', [...types]);
  return query
    .orderBy('id')
    .limit(PAGE)
    .execute()
    .then((rows) => rows.map((r) => ({ id: Number(r.id), event_type: r.event_type, payload: r.payload })));
}

/**
 * One Server-Sent Events message per event: `id` is the outbox id (what Last-Event-ID resumes
 * from), `event` the type, `data` the exact payload bytes a webhook delivery carries (one line:
 * the payload is compact JSON).
 */
export function formatEvent(e: StreamedEvent): string {
  return `id: ${e.id}\nevent: ${e.event_type}\ndata: ${e.payload}\n\n`;
}

export interface StreamOptions {
  db: Db;
  accountId: number;
  afterId: number;
  types: readonly EventType[] | null;
  pollMs: number;
  heartbeatMs: number;
  onError: (err: unknown) => void;
}

/**
 * Polls the outbox and writes new events to `res` until `stop()` or the client goes away.
 * Polling (not LISTEN) so it works the same on both engines and across processes; one indexed
 * range read per poll per open stream.
 */
export function pumpEvents(res: ServerResponse, o: StreamOptions): { stop: () => void } {
  let afterId = o.afterId;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let lastWrite = Date.now();
  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (timer) clearTimeout(timer);
    res.end();
  };
  res.on('close', stop);
  const tick = async () => {
    timer = null;
    try {
      for (;;) {
        if (stopped) return;
        const events = await eventsAfter(o.db, o.accountId, afterId, o.types);
        if (stopped) return;
        for (const e of events) {
          res.write(formatEvent(e));
          afterId = e.id;
        }
        if (events.length) lastWrite = Date.now();
        if (events.length < PAGE) break;
      }
      if (Date.now() - lastWrite >= o.heartbeatMs) {
        res.write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
    } catch (err) {
      o.onError(err);
    }
    if (!stopped) timer = setTimeout(tick, o.pollMs);
  };
  void tick();
  return { stop };
}
