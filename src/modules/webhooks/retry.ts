import type { AttemptOutcome } from './dispatch.repository.ts';
import type { AttemptResult } from './sender.ts';

/** Retry timing and the consequences of an attempt (docs/design.md#webhooks). */

export const JITTER = 0.2;
/** An endpoint failing every attempt this long is disabled. */
export const AUTO_DISABLE_AFTER_MS = 5 * 86_400_000;

/**
 * The delay after failed attempt number `attempt` (1-based), or null when none remains.
 * The scheduled delay gets ±20% jitter; a receiver's Retry-After is honoured within 1× to 2× of it.
 */
export function retryDelayMs(
  attempt: number,
  scheduleSeconds: readonly number[],
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  if (attempt > scheduleSeconds.length) return null;
  const scheduled = scheduleSeconds[attempt - 1] * 1000;
  if (retryAfterMs !== null) return Math.round(Math.min(Math.max(retryAfterMs, scheduled), 2 * scheduled));
  return Math.round(scheduled * (1 + JITTER * (2 * random() - 1)));
}

/**
 * What an attempt leads to: sent; or failed, with the next attempt while the schedule lasts (none
 * after a 410, which also disables the endpoint), and the endpoint disabled once its failures
 * have lasted 5 days.
 */
export function outcomeOf(
  result: AttemptResult,
  attemptNumber: number,
  failingSince: number | null,
  requestedAt: number,
  scheduleSeconds: readonly number[],
  random?: () => number,
): AttemptOutcome {
  if (!result.error) return { status: 'sent', attemptNumber, nextAttemptAt: null, disabledReason: null };
  const gone = result.statusCode === 410;
  const streakTooLong = failingSince !== null && requestedAt - failingSince >= AUTO_DISABLE_AFTER_MS;
  const delay = gone ? null : retryDelayMs(attemptNumber, scheduleSeconds, result.retryAfterMs, random);
  return {
    status: 'failed',
    attemptNumber,
    nextAttemptAt: delay === null ? null : requestedAt + delay,
    disabledReason: gone ? 'gone' : streakTooLong ? 'failing_5_days' : null,
  };
}
