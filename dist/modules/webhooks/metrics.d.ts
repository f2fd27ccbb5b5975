import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
/**
 * Prometheus metrics. The attempt counters and latency belong to this process's dispatcher (one
 * registry per process); the delivery gauges are read from the database at scrape time, so any
 * process (API or worker) reports the same queue.
 */
export declare const dispatcherRegistry: Registry<"text/plain; version=0.0.4; charset=utf-8">;
export declare const attemptsTotal: Counter<"error" | "outcome">;
export declare const attemptDuration: Histogram<string>;
export declare const inFlight: Gauge<string>;
/** A registry of database-backed gauges for one database. */
export declare function createQueueRegistry(db: Db, clock: Clock): Registry;
/**
 * The queue gauges read the database; while it is down they are left out (with a comment line),
 * so the scrape still shows this process's counters and the dependency state that explains why.
 */
export declare function renderMetrics(queue: Registry, others?: Registry[]): Promise<string>;
export declare const METRICS_CONTENT_TYPE: "text/plain; version=0.0.4; charset=utf-8";
