import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { generateWebhookSecret } from '../../lib/crypto.ts';
import { deliveryHeaders } from '../webhooks/signing.ts';

export interface ListenOptions {
  /** The custops server, e.g. http://127.0.0.1:8080. */
  api: string;
  key: string;
  forwardTo: string;
  types: string[] | null;
  /** One line per delivery and per state change. */
  print: (line: string) => void;
  signal: AbortSignal;
  /** Per-delivery time-out, as real deliveries (15 s). */
  timeoutMs?: number;
  /** The session's signing secret; generated when absent. */
  secret?: string;
}

export class ListenError extends Error {}

const RECONNECT_MS = 1000;

/**
 * `custops listen`: reads the account's event stream (GET /api/v1/events/stream) and POSTs each
 * event to a local URL, signed exactly as a webhook delivery (every header, both signature
 * schemes) with a secret made for this session. Reconnects after a dropped stream with
 * Last-Event-ID, so no event is skipped or sent twice by the stream. Stops when `signal` aborts.
 */
export async function listen(o: ListenOptions): Promise<void> {
  const secret = o.secret ?? generateWebhookSecret();
  const streamUrl = new URL('/api/v1/events/stream', o.api);
  if (o.types) streamUrl.searchParams.set('types', o.types.join(','));
  let lastEventId: string | null = null;
  let announced = false;
  while (!o.signal.aborted) {
    let res: Response;
    try {
      res = await fetch(streamUrl, {
        headers: { authorization: `Bearer ${o.key}`, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
        signal: o.signal,
      });
    } catch (err) {
      if (o.signal.aborted) return;
      o.print(`! cannot reach ${o.api} (${(err as Error).message}); retrying`);
      await pause(RECONNECT_MS, o.signal);
      continue;
    }
    if (!res.ok || !res.body) {
      const body = await res.text().catch(() => '');
      const detail = (() => {
        try {
          return JSON.parse(body).message as string;
        } catch {
          return body.slice(0, 200);
        }
      })();
      // Wrong key, missing scope or bad input will not fix themselves.
      if (res.status < 500) throw new ListenError(`the event stream answered ${res.status}: ${detail}`);
      o.print(`! the event stream answered ${res.status}; retrying`);
      await pause(RECONNECT_MS, o.signal);
      continue;
    }
    if (!announced) {
      announced = true;
      o.print(`Ready. Forwarding ${o.types ? o.types.join(', ') : 'every'} event of ${o.api} to ${o.forwardTo}`);
      o.print(`Signing secret for this session: ${secret}`);
    }
    const queue: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (message) => queue.push(message) });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        // One at a time, in order, as the dispatcher sends them to one endpoint.
        while (queue.length) {
          const message = queue.shift()!;
          await forward(o, secret, message);
          if (message.id) lastEventId = message.id;
        }
      }
    } catch (err) {
      if (o.signal.aborted) return;
      o.print(`! the event stream broke (${(err as Error).message}); reconnecting`);
    }
    if (!o.signal.aborted) await pause(RECONNECT_MS, o.signal);
  }
}

async function forward(o: ListenOptions, secret: string, message: EventSourceMessage): Promise<void> {
  const body = message.data;
  const eventId = (JSON.parse(body) as { id: string }).id;
  const headers = deliveryHeaders({
    body,
    eventType: message.event ?? 'unknown',
    eventId,
    deliveryId: Number(message.id ?? 0),
    secret,
    previousSecret: null,
    timestampSeconds: Math.floor(Date.now() / 1000),
  });
  const started = performance.now();
  const label = `${new Date().toISOString()}  ${message.event} ${eventId}`;
  try {
    const res = await fetch(o.forwardTo, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.any([o.signal, AbortSignal.timeout(o.timeoutMs ?? 15_000)]),
    });
    await res.arrayBuffer().catch(() => undefined);
    o.print(`${label}  -> POST ${o.forwardTo}  <- ${res.status} ${res.statusText} (${Math.round(performance.now() - started)} ms)`);
  } catch (err) {
    if (o.signal.aborted) return;
    const e = err as Error & { cause?: { code?: string } };
    o.print(`${label}  -> POST ${o.forwardTo}  <- failed: ${e.cause?.code ?? e.name} (${Math.round(performance.now() - started)} ms)`);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
