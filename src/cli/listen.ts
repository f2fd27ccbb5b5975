import { EVENT_TYPES, isEventType } from '../modules/events/catalog.ts';
import { listen } from '../modules/events/listen.ts';
import { defineCommand, UsageError } from './command.ts';

/**
 * `custops listen`: local webhook development. Connects to a running custops with an API key
 * (`--key` or CUSTOPS_API_KEY; it needs `webhooks:read`) and forwards each event of the account,
 * signed as a real delivery, to a local URL (plain http://localhost included).
 */
export const listenCommand = defineCommand({
  name: 'listen',
  summary:
    'Forwards the account’s events, signed exactly as webhook deliveries with a secret printed at start, to a local URL; prints each delivery and its answer.',
  options: {
    'forward-to': { type: 'string', value: 'URL', help: 'where to POST each event, e.g. http://localhost:3000/webhooks', required: true },
    events: { type: 'string', value: 'a,b', help: `only these event types (default all): ${EVENT_TYPES.join(', ')}` },
    api: { type: 'string', value: 'URL', help: 'the custops server (default CUSTOPS_API_URL, else http://127.0.0.1:8080)' },
    key: { type: 'string', value: 'KEY', help: 'an API key with webhooks:read (default CUSTOPS_API_KEY)' },
  },
  async run(values, ctx) {
    const forwardTo = httpUrl(values['forward-to'], '--forward-to');
    const api = httpUrl(values.api ?? ctx.env.CUSTOPS_API_URL ?? 'http://127.0.0.1:8080', '--api');
    const key = values.key ?? ctx.env.CUSTOPS_API_KEY;
    if (!key) throw new UsageError('--key (or CUSTOPS_API_KEY) is required');
    let types: string[] | null = null;
    if (values.events !== undefined) {
      types = [
        ...new Set(
          values.events
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
        ),
      ];
      const bad = types.filter((t) => !isEventType(t));
      if (types.length === 0 || bad.length) throw new UsageError(`--events must list event types among ${EVENT_TYPES.join(', ')}`);
    }
    const controller = new AbortController();
    const running = listen({ api, key, forwardTo, types, print: (line) => ctx.out(line), signal: controller.signal });
    let failure: unknown = null;
    const done = running.catch((err) => {
      failure = err;
    });
    await Promise.race([done, ctx.waitForStop(async () => controller.abort())]);
    controller.abort();
    await done;
    if (failure) throw failure;
  },
});

function httpUrl(raw: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${flag} must be an absolute http:// or https:// URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an absolute http:// or https:// URL`);
  return url.toString();
}
