import { Type } from 'typebox';
import type { ModuleDeps } from '../../http/deps.ts';
import type { App } from '../../http/types.ts';
import { validationError } from '../../lib/errors.ts';
import { EVENT_TYPES, isEventType, type EventType } from './catalog.ts';
import { latestEventId, pumpEvents } from './stream.ts';

const POLL_MS = 250;
const HEARTBEAT_MS = 15_000;

const StreamQuery = Type.Object({
  types: Type.Optional(
    Type.String({
      maxLength: 500,
      description: `Comma-separated event types to stream (default: all seven): ${EVENT_TYPES.join(', ')}.`,
      examples: ['deal.won,deal.lost'],
    }),
  ),
});

const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({ maxLength: 20, description: 'Resume after this event (the `id:` of the last message received); EventSource clients send it on reconnect.' }),
  ),
});

function parseTypes(raw: string | undefined): EventType[] | null {
  if (raw === undefined || raw.trim() === '') return null;
  const list = [
    ...new Set(
      raw
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  const bad = list.filter((t) => !isEventType(t));
  if (bad.length) throw validationError({ types: 'invalid' }, `Unknown event type(s): ${bad.join(', ')}. Known: ${EVENT_TYPES.join(', ')}.`);
  return list as EventType[];
}

/**
 * `GET /api/v1/events/stream`: the account's events as Server-Sent Events, read from the outbox, for
 * `custops listen` and any EventSource client. It streams what webhooks deliver, independent of
 * endpoints: one message per event, payload bytes exactly as delivered.
 */
export function registerEventRoutes(app: App, deps: ModuleDeps): void {
  const open = new Set<{ stop: () => void }>();
  // Streams never end by themselves: closing the server ends them so it can drain.
  app.addHook('preClose', async () => {
    for (const s of open) s.stop();
  });

  app.get(
    '/events/stream',
    {
      config: { scope: 'webhooks:read', errors: [], stream: true },
      schema: {
        operationId: 'streamEvents',
        summary: 'Stream the account’s events (Server-Sent Events)',
        description:
          'A `text/event-stream` that stays open: each event of the account as one message, `id:` its position (send it back as `Last-Event-ID` to resume after it), ' +
          '`event:` its type, `data:` the payload exactly as a webhook delivery carries it (see the `webhooks` section). Without `Last-Event-ID` the stream starts with the next event. ' +
          'A comment line (`: keep-alive`) every 15 s keeps proxies from closing it. Used by `custops listen`, which forwards each event, signed, to a local URL. ' +
          '`types` outside the catalog, or a `Last-Event-ID` that is not digits, is 422.',
        tags: ['webhooks'],
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: {
          200: {
            description: 'The event stream (never ends on its own).',
            content: {
              'text/event-stream': { schema: { type: 'string', examples: ['id: 42\nevent: deal.won\ndata: {"id":"evt_…","event_type":"deal.won",…}\n\n'] } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const types = parseTypes(request.query.types);
      const lastEventId = request.headers['last-event-id'];
      if (lastEventId !== undefined && !/^\d{1,16}$/.test(lastEventId)) {
        throw validationError({ 'last-event-id': 'invalid' }, 'Last-Event-ID must be the id of a message received from this stream.');
      }
      const accountId = request.auth.accountId;
      const afterId = lastEventId === undefined ? await latestEventId(deps.db, accountId) : Number(lastEventId);
      reply.hijack();
      // Headers set so far (X-Request-Id, RateLimit-*) go out with the stream.
      const headers = Object.fromEntries(Object.entries(reply.getHeaders()).filter(([, v]) => v !== undefined)) as Record<string, string | number | string[]>;
      reply.raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
      });
      reply.raw.write('retry: 2000\n\n');
      const stream = pumpEvents(reply.raw, {
        db: deps.db,
        accountId,
        afterId,
        types,
        pollMs: POLL_MS,
        heartbeatMs: HEARTBEAT_MS,
        onError: (err) => request.log.warn({ err }, 'event stream read failed; retrying'),
      });
      open.add(stream);
      reply.raw.on('close', () => open.delete(stream));
    },
  );
}
