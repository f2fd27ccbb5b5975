import { loadConfig } from '../config.ts';
import { defineCommand, UsageError } from './command.ts';

function portNumber(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError('--port must be a port number (0 to 65535)');
  return Number(value);
}

export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'Runs the HTTP API and the embedded webhook dispatcher until SIGINT or SIGTERM.',
  options: {
    port: { type: 'string', value: 'N', help: 'listen port (overrides PORT; 0 picks a free one)' },
    host: { type: 'string', value: 'H', help: 'listen address (overrides HOST)' },
    'no-migrate': { type: 'boolean', help: 'do not migrate; refuse a database "custops migrate" has not brought up to date (rolling deploys)' },
  },
  async run(values, ctx) {
    const port = values.port === undefined ? undefined : portNumber(values.port);
    const config = loadConfig(ctx.env, { port, host: values.host });
    // Loaded here, not at the top: every other command starts without the HTTP app's modules.
    const { startServer } = await import('../server.ts');
    const server = await startServer(config, { clock: ctx.clock, migrate: !values['no-migrate'] });
    await ctx.waitForStop(() => server.stop());
  },
});
