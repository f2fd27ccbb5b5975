import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { classifyAddress, hostOf } from './ssrf.ts';

/** First bytes of a response body kept in the attempt log. */
export const RESPONSE_BODY_LIMIT = 20 * 1024;

export type ErrorClass = 'http_status' | 'redirect' | 'timeout' | 'connect_timeout' | 'connection_refused' | 'dns' | 'tls' | 'blocked_address' | 'network';

export interface AttemptResult {
  statusCode: number;
  error: ErrorClass | null;
  responseBody: string | null;
  durationMs: number;
  /** From a Retry-After header, in milliseconds. */
  retryAfterMs: number | null;
}

export interface SenderOptions {
  allowPrivate: boolean;
  connectTimeoutMs: number;
  timeoutMs: number;
  /** Sockets per origin. */
  connectionsPerOrigin: number;
  /** Extra TLS trust (tests); otherwise Node's store, which NODE_EXTRA_CA_CERTS extends. */
  ca?: string | Buffer | (string | Buffer)[];
  /** DNS for the connection (tests stand in a rebinding resolver). */
  lookup?: LookupFunction;
}

class BlockedAddressError extends Error {
  readonly code = 'E_BLOCKED_ADDRESS';
}

/**
 * Refuses names that resolve to a blocked address before connecting. Every resolved address must
 * pass, so a name cannot sneak a private address in beside a public one.
 */
function guardedLookup(base: LookupFunction): LookupFunction {
  return ((hostname: string, options: object, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    base(
      hostname,
      options as never,
      ((err: Error | null, address: string | LookupAddress[], family?: number) => {
        if (err) return callback(err, address, family);
        const list = Array.isArray(address) ? address.map((a) => a.address) : [address];
        const bad = list.find((a) => classifyAddress(a));
        if (bad) return callback(new BlockedAddressError(`${hostname} resolves to a blocked address (${bad})`), address, family);
        callback(null, address, family);
      }) as never,
    );
  }) as LookupFunction;
}

export function createSender(options: SenderOptions) {
  const lookup = options.lookup ?? (dnsLookup as unknown as LookupFunction);
  const base = buildConnector({
    timeout: Math.min(options.connectTimeoutMs, options.timeoutMs),
    ...(options.ca ? { ca: options.ca } : {}),
    lookup: options.allowPrivate ? lookup : guardedLookup(lookup),
  });
  // The check that matters: the address actually connected to, whatever DNS answered before.
  const connect: buildConnector.connector = (opts, callback) =>
    base(opts, (...args) => {
      const [err, socket] = args;
      if (err) return callback(err, null);
      const remote = socket!.remoteAddress;
      if (!options.allowPrivate && (!remote || classifyAddress(remote))) {
        socket!.destroy();
        return callback(new BlockedAddressError(`connected address ${remote} is blocked`), null);
      }
      callback(null, socket!);
    });
  const agent = new Agent({ connect, connections: options.connectionsPerOrigin, keepAliveTimeout: 30_000, pipelining: 1 });

  async function send(url: string, headers: Record<string, string>, body: Buffer): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    if (!options.allowPrivate) {
      // Plain http was accepted only in development mode (to loopback); without it, never send in clear.
      if (url.startsWith('http:')) return failure('blocked_address', elapsed());
      const host = hostOf(new URL(url));
      if (isIP(host) && classifyAddress(host)) return failure('blocked_address', elapsed());
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), options.timeoutMs);
    try {
      const res = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: agent,
        signal: controller.signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
        if (size >= RESPONSE_BODY_LIMIT) break;
      }
      const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return {
        statusCode: res.statusCode,
        error: ok ? null : res.statusCode >= 300 && res.statusCode < 400 ? 'redirect' : 'http_status',
        responseBody: text,
        durationMs: elapsed(),
        retryAfterMs: ok ? null : parseRetryAfter(res.headers['retry-after']),
      };
    } catch (err) {
      return failure(classify(err, controller.signal.aborted), elapsed());
    } finally {
      clearTimeout(timer);
    }
  }

  return { send, close: () => agent.close() };
}

export type Sender = ReturnType<typeof createSender>;

function failure(error: ErrorClass, durationMs: number): AttemptResult {
  return { statusCode: 0, error, responseBody: null, durationMs, retryAfterMs: null };
}

function classify(err: unknown, aborted: boolean): ErrorClass {
  const e = err as { code?: string; cause?: { code?: string }; message?: string };
  const code = e.code ?? e.cause?.code ?? '';
  if (code === 'E_BLOCKED_ADDRESS' || e.cause?.code === 'E_BLOCKED_ADDRESS') return 'blocked_address';
  if (aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_ABORTED') return 'timeout';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'connect_timeout';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'dns';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|HOSTNAME/i.test(code) || /certificate|ssl|tls/i.test(e.message ?? '')) return 'tls';
  return 'network';
}

function parseRetryAfter(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
