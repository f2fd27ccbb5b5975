/** How long after a failed attempt the next one is due (decisions.md "Webhooks"). */

export const JITTER = 0.2;
/** An endpoint failing every attempt this long is disabled. */
export const AUTO_DISABLE_AFTER_MS = 5 * 86_400_000;

/**
 * The delay after failed attempt number `attempt` (1-based), or null when none remains.
 * The scheduled delay gets ±20% jitter; a receiver's Retry-After is honoured within 1× to 2× of it.
 */
export function retryDelayMs(attempt: number, scheduleSeconds: readonly number[], retryAfterMs: number | null, random: () => number = Math.random): number | null {
  if (attempt > scheduleSeconds.length) return null;
  const scheduled = scheduleSeconds[attempt - 1] * 1000;
  if (retryAfterMs !== null) return Math.round(Math.min(Math.max(retryAfterMs, scheduled), 2 * scheduled));
  return Math.round(scheduled * (1 + JITTER * (2 * random() - 1)));
}
