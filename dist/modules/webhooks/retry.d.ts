import type { AttemptOutcome } from './dispatch.repository.ts';
import type { AttemptResult } from './sender.ts';
/** Retry timing and the consequences of an attempt (decisions.md "Webhooks"). */
export declare const JITTER = 0.2;
/** An endpoint failing every attempt this long is disabled. */
export declare const AUTO_DISABLE_AFTER_MS: number;
/**
 * The delay after failed attempt number `attempt` (1-based), or null when none remains.
 * The scheduled delay gets ±20% jitter; a receiver's Retry-After is honoured within 1× to 2× of it.
 */
export declare function retryDelayMs(attempt: number, scheduleSeconds: readonly number[], retryAfterMs: number | null, random?: () => number): number | null;
/**
 * What an attempt leads to: sent; or failed, with the next attempt while the schedule lasts (none
 * after a 410, which also disables the endpoint), and the endpoint disabled once its failures
 * have lasted 5 days.
 */
export declare function outcomeOf(result: AttemptResult, attemptNumber: number, failingSince: number | null, requestedAt: number, scheduleSeconds: readonly number[], random?: () => number): AttemptOutcome;
