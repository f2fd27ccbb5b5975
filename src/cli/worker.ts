import { loadConfig } from '../config.ts';
import { defineCommand } from './command.ts';

export const workerCommand = defineCommand({
  name: 'worker',
  summary: 'Runs the webhook dispatcher alone (for scaled deployments) until SIGINT or SIGTERM.',
  options: {
    'no-migrate': { type: 'boolean', help: 'do not migrate; refuse a database "custops migrate" has not brought up to date (rolling deploys)' },
  },
  async run(values, ctx) {
    const { runWorker } = await import('../worker.ts');
    await runWorker(loadConfig(ctx.env), (stop) => ctx.waitForStop(stop), { migrate: !values['no-migrate'] });
  },
});
