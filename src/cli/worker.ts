import { loadConfig, withSecretKey } from '../config.ts';
import { runWorker } from '../worker.ts';
import { defineCommand } from './command.ts';

export const workerCommand = defineCommand({
  name: 'worker',
  summary: 'Runs the webhook dispatcher alone (for scaled deployments) until SIGINT or SIGTERM.',
  options: {},
  async run(_values, ctx) {
    const config = withSecretKey(loadConfig(ctx.env));
    await runWorker(config, (stop) => ctx.waitForStop(stop));
  },
});
