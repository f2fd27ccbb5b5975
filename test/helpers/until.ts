import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `check` every `everyMs` until it holds; fails the test naming `what` after `ms`. */
export async function until(what: string, check: () => boolean, ms = 5_000, everyMs = 10): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
