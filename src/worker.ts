import type { Config } from './config.ts';

/**
 * `custops worker`: the webhook dispatcher alone, for scaled deployments. The dispatcher
 * (outbox fan-out, signing, retries) lands with the webhook delivery capability; until then
 * this command says so and exits non-zero rather than pretending to work.
 */
export async function runWorker(_config: Config, _waitForSignal: (stop: () => Promise<void>) => Promise<void>): Promise<void> {
  throw new Error('webhook delivery is not available in this build yet; `custops worker` has nothing to run');
}
