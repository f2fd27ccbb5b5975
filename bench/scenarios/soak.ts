import type { Engine } from '../lib/deal-data.ts';
import { log, rssMbOf, runLoad } from '../lib/processes.ts';
import type { BenchOptions } from '../lib/types.ts';
import { createBody, runOnEngines, startService, waitForBacklog, type Receiver } from './webhooks-mixed.ts';

export const name = 'soak';
export const description =
  'Memory of `custops serve` (API and dispatcher) under mixed load for --soak seconds (default 60; the acceptance run is --soak 600): ' +
  'a fifth of --rate as POST /deals/{id}/activities (each a webhook delivery), the rest GET /deals/{id} and GET /deals; ' +
  'RSS idle after start, after warm-up (the first fifth), at the end, 5 s after the load and idle again (15 s after it).';

const GOALS = { idle_rss_mb: 150, growth_after_warmup_pct: 10 };
const SAMPLE_EVERY_MS = 2000;
// "Idle" is read after this long without load: a quiet service hands the heap it grew back 5–10 s
// after its last work (CUSTOPS_IDLE_RELEASE_S, docs/operations.md#memory).
const REST_MS = 15_000;

const mean = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : 0);
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runEngine(engine: Engine, receiver: Receiver, options: BenchOptions) {
  // As a service runs: a quiet process hands its heap back (5 s, the default of CUSTOPS_IDLE_RELEASE_S).
  const service = await startService(engine, receiver, { CUSTOPS_IDLE_RELEASE_S: '5' });
  try {
    const pid = service.server.pid;
    await settle(REST_MS);
    const idleStart = rssMbOf(pid);
    const samples: { at: number; rss: number }[] = [];
    const started = Date.now();
    let sampling = true;
    const seconds = options.soakSeconds;
    // BENCH_HEAP_SNAPSHOTS (bench/lib/processes.ts): a heap snapshot when the warm-up ends and one before the load ends.
    const snapshotsAt = process.env.BENCH_HEAP_SNAPSHOTS ? [seconds / 5 + Math.max(10, seconds / 10), seconds - 5] : [];
    const sampler = (async () => {
      while (sampling) {
        const at = (Date.now() - started) / 1000;
        const rss = rssMbOf(pid);
        if (rss !== null) samples.push({ at, rss });
        if (snapshotsAt.length && at >= snapshotsAt[0]) {
          snapshotsAt.shift();
          log(`${name}: ${engine}: heap snapshot at ${Math.round(at)} s`);
          process.kill(pid, 'SIGUSR2');
        }
        await settle(SAMPLE_EVERY_MS);
      }
    })();
    const writes = Math.max(1, Math.round(options.rate / 5));
    const dealUrl = service.url.replace(/\/activities$/, '');
    const listUrl = dealUrl.replace(/\/deals\/\d+$/, '/deals?status=qualified&per_page=25');
    const common = { headers: service.auth, durationSeconds: seconds, warmupSeconds: 0 };
    const [w, r1, r2] = await Promise.all([
      runLoad({ ...common, url: service.url, method: 'POST', body: createBody, connections: 8, overallRate: writes }),
      runLoad({ ...common, url: dealUrl, connections: 8, overallRate: Math.round((options.rate - writes) / 2) }),
      runLoad({ ...common, url: listUrl, connections: 4, overallRate: Math.round((options.rate - writes) / 2) }),
    ]);
    sampling = false;
    await sampler;
    const drainMs = await waitForBacklog(service.db, 60_000);
    await settle(5000);
    const afterLoad = rssMbOf(pid);
    await settle(REST_MS - 5000);
    const idleEnd = rssMbOf(pid);
    const warm = samples.filter((s) => s.at >= seconds / 5 && s.at < seconds / 5 + Math.max(10, seconds / 10)).map((s) => s.rss);
    const end = samples.filter((s) => s.at >= seconds - Math.max(10, seconds / 10)).map((s) => s.rss);
    const growth = warm.length && end.length ? Math.round(((mean(end) - mean(warm)) / mean(warm)) * 1000) / 10 : null;
    const { count } = await receiver.stats();
    return {
      engine,
      soak_s: seconds,
      rate_asked: options.rate,
      writes_per_s: w.req_per_s,
      reads_per_s: r1.req_per_s + r2.req_per_s,
      non_2xx: w.non_2xx + r1.non_2xx + r2.non_2xx,
      errors: w.errors + r1.errors + r2.errors,
      webhooks_delivered: count,
      drain_after_load_ms: drainMs,
      rss_idle_start_mb: idleStart,
      rss_after_warmup_mb: mean(warm),
      rss_end_mb: mean(end),
      rss_max_mb: Math.max(0, ...samples.map((s) => s.rss)),
      growth_after_warmup_pct: growth,
      rss_5s_after_load_mb: afterLoad,
      rss_idle_end_mb: idleEnd,
    };
  } finally {
    await service.stop();
  }
}

export async function run(options: BenchOptions): Promise<void> {
  await runOnEngines(name, GOALS, options, async (engine, receiver) => {
    log(`${name}: ${engine}: ${options.rate} requests/s for ${options.soakSeconds} s`);
    const r = await runEngine(engine, receiver, options);
    const idle = Math.max(r.rss_idle_start_mb ?? 0, r.rss_idle_end_mb ?? 0);
    if (idle >= GOALS.idle_rss_mb) log(`GOAL MISSED: ${engine} idle RSS ${idle} MB (goal under ${GOALS.idle_rss_mb})`);
    if (r.growth_after_warmup_pct !== null && r.growth_after_warmup_pct > GOALS.growth_after_warmup_pct)
      log(`GOAL MISSED: ${engine} RSS grew ${r.growth_after_warmup_pct} % after warm-up`);
    return r;
  });
}
