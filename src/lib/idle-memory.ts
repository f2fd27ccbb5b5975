import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The event loop counts as quiet below this share of busy time over a whole check interval. */
const QUIET_UTILIZATION = 0.02;
/** V8's committed heap must have grown this much since the last release for another to be worth it. */
const MIN_GROWTH_BYTES = 8 * 1024 * 1024;

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

let cachedCollect: Collect | null | undefined;

/**
 * V8's collection function, as `--expose-gc` gives it (the `gc` of a process started with the flag),
 * or taken from a fresh context with the flag set only for that moment, so that no global `gc`
 * appears in this process's own context. Null where the runtime offers neither.
 */
function collector(): Collect | null {
  if (cachedCollect !== undefined) return cachedCollect;
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') {
    cachedCollect = exposed as Collect;
    return cachedCollect;
  }
  try {
    setFlagsFromString('--expose-gc');
    const fresh: unknown = runInNewContext('typeof gc === "function" ? gc : null');
    cachedCollect = typeof fresh === 'function' ? (fresh as Collect) : null;
  } catch {
    cachedCollect = null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return cachedCollect;
}

export interface IdleRelease {
  /** What was handed back at the last release: V8's committed heap before and after, in bytes. */
  readonly last: { before: number; after: number } | null;
  readonly releases: number;
  stop(): void;
}

export interface IdleReleaseOptions {
  /** How often the event loop's busy share is read (a release needs one whole quiet interval); 0: never. */
  everyMs: number;
  /** Told of each release at debug level (pino's signature). */
  log?: { debug(fields: object, message: string): void };
}

/**
 * Hands V8's unused heap back to the system once the process has gone quiet (docs/operations.md#memory).
 *
 * Under load V8 grows its young generation to its cap and keeps old-generation pages for the garbage
 * of busy moments; a regular collection frees objects but keeps those pages, so a process that has
 * served a burst stays at the burst's size while it idles (about 30 MB more than after start-up, in
 * the `soak` bench). Chrome asks V8 for a memory-reducing collection when a tab goes to the
 * background; nothing in Node.js does. This does it for a server: every `everyMs` it reads the event
 * loop's utilization since the previous read, and when that whole interval was quiet (under 2 % busy:
 * health checks and metric scrapes stay under it), an interval was busy since the last release (or
 * start-up was), and V8's committed heap has grown by 8 MiB or more since then, it runs one
 * memory-reducing full collection (V8's "last resort": full collections until nothing more is freed,
 * with compaction), which shrinks the young generation and returns empty pages. A process that stays
 * idle, or under a load that keeps it under 2 % busy, therefore collects once, not every interval, and
 * a busy one never: at most one release per busy-then-quiet turn. The pause (tens to a few hundred
 * milliseconds, with the heap's size) falls when there is little work to delay.
 */
export function releaseMemoryWhenIdle(options: IdleReleaseOptions): IdleRelease | null {
  if (options.everyMs <= 0) return null;
  const collect = collector();
  let releases = 0;
  let last: { before: number; after: number } | null = null;
  let committedAfterRelease = 0;
  // Start-up counts as work: its garbage (compiled schemas, migrations) goes at the first quiet interval.
  let workedSinceRelease = true;
  let previous = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, previous).utilization;
    previous = now;
    if (busy >= QUIET_UTILIZATION) {
      workedSinceRelease = true;
      return;
    }
    if (collect === null || !workedSinceRelease) return;
    const before = getHeapStatistics().total_heap_size;
    if (before - committedAfterRelease < MIN_GROWTH_BYTES) return;
    workedSinceRelease = false;
    const started = performance.now();
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    const after = getHeapStatistics().total_heap_size;
    committedAfterRelease = after;
    releases++;
    last = { before, after };
    // The collection itself made the loop busy: the next interval starts from here.
    previous = performance.eventLoopUtilization();
    options.log?.debug({ heapBefore: before, heapAfter: after, ms: Math.round(performance.now() - started) }, 'idle: unused heap handed back');
  }, options.everyMs);
  timer.unref();
  return {
    get last() {
      return last;
    },
    get releases() {
      return releases;
    },
    stop: () => clearInterval(timer),
  };
}
