import type { Config } from './config.ts';
/**
 * `custops worker`: the webhook dispatcher alone, for scaled deployments. Any number of workers
 * (and `serve` processes) share one PostgreSQL: claims use FOR UPDATE SKIP LOCKED, and NOTIFY wakes
 * them when events commit. SIGTERM stops claiming, finishes the attempts in flight, then exits.
 */
export declare function runWorker(settings: Config, waitForSignal: (stop: () => Promise<void>) => Promise<void>, options?: {
    migrate?: boolean;
}): Promise<void>;
