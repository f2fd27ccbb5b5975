/** Options every scenario receives from bench/run.ts. */
export interface BenchOptions {
  /** Only this engine, for the scenarios run on each (`--engine`); both when unset. */
  engine?: 'sqlite' | 'postgres';
  /** Seconds of measured load per target (server under test, then baseline). */
  durationSeconds: number;
  /** Seconds of unmeasured load first, so JIT and caches are warm. */
  warmupSeconds: number;
  /** Concurrent HTTP connections of the load generator. */
  connections: number;
  /** Steady request rate of the mixed-load scenarios (webhooks-mixed, soak), per second. */
  rate: number;
  /** Seconds of mixed load in the soak scenario. */
  soakSeconds: number;
}

/**
 * A scenario module: `run` prepares its data, measures, and ends by printing ONE JSON line
 * `{scenario, ...figures, baseline: {...}, ratio}` on stdout (progress goes to stderr).
 */
export interface Scenario {
  name: string;
  description: string;
  run(options: BenchOptions): Promise<void>;
}

/** What one load run measured. Latencies in milliseconds. */
export interface LoadFigures {
  req_per_s: number;
  p50_ms: number;
  p99_ms: number;
  requests: number;
  non_2xx: number;
  errors: number;
}
