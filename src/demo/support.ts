import type { SupportLogsTable, TicketStatus } from '../db/schema.ts';
import { CHANNELS, LOG_NOTES, TICKET_TOPICS } from './catalog.ts';
import { DEMO_WINDOW_DAYS, insertBatched, recent, titledRecord, type DemoWorld } from './world.ts';

const TICKET_COUNT = 24;
const FIXED: TicketStatus[] = ['open', 'pending', 'closed'];

type NewLog = Omit<SupportLogsTable, 'id'>;

/** Tickets open, pending and closed, each with its log: the first entry is the customer's report. */
export async function seedTickets(w: DemoWorld): Promise<void> {
  const { trx, rnd, now, accountId } = w;
  const agents = w.users.filter((u) => u.support);
  const activeAgents = agents.filter((u) => u.active);
  const logs: NewLog[] = [];
  for (let i = 0; i < TICKET_COUNT; i++) {
    const roll = rnd.next();
    const status: TicketStatus = i < FIXED.length ? FIXED[i] : roll < 0.35 ? 'open' : roll < 0.55 ? 'pending' : 'closed';
    const org = rnd.pick(w.orgs);
    const topic = rnd.pick(TICKET_TOPICS);
    const channel = rnd.pick(CHANNELS);
    const created = recent(rnd, now, DEMO_WINDOW_DAYS);
    const owner = status !== 'open' || rnd.chance(0.7) ? rnd.pick(activeAgents) : null;
    const times = [created];
    for (let n = rnd.int(status === 'closed' ? 2 : 1, 5) - 1; n > 0; n--) times.push(created + Math.floor(rnd.next() * (now - created) * 0.8));
    times.sort((a, b) => a - b);
    const last = times[times.length - 1];
    const closedAt = status === 'closed' ? last + Math.floor(rnd.next() * (now - last)) : null;
    const ticket = await trx
      .insertInto('tickets')
      .values({
        ...titledRecord(w, org, 0.75, owner, topic.title),
        details: topic.details,
        status,
        channel,
        external_reference: rnd.chance(0.5) ? `HD-${rnd.int(10_000, 99_999)}` : null,
        metadata: rnd.chance(0.3) ? JSON.stringify({ priority: rnd.pick(['low', 'normal', 'high']) }) : null,
        source_app: rnd.chance(0.5) ? 'helpdesk' : null,
        created_at: created,
        updated_at: closedAt ?? last,
        closed_at: closedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    times.forEach((at, j) => {
      const author = j === 0 ? null : owner && rnd.chance(0.7) ? owner : rnd.pick(agents);
      logs.push({
        account_id: accountId,
        ticket_id: ticket.id,
        org_id: org.id,
        note: j === 0 ? topic.details : rnd.pick(LOG_NOTES),
        channel: j === 0 ? channel : rnd.pick(CHANNELS),
        author_user_id: author?.id ?? null,
        created_at: at,
      });
    });
  }
  logs.sort((a, b) => a.created_at - b.created_at);
  await insertBatched(logs, (chunk) => trx.insertInto('support_logs').values(chunk).execute());
}
