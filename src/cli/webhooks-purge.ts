import { loadConfig } from '../config.ts';
import { purgeWebhookHistory, retentionCutoff } from '../modules/webhooks/retention.ts';
import { defineCommand, positiveInt, print, withDatabase } from './command.ts';

export const webhooksPurgeCommand = defineCommand({
  name: 'webhooks purge',
  summary:
    'Purges now what serve and worker purge hourly: finished webhook deliveries, their attempts and events older than ' +
    'CUSTOPS_WEBHOOK_RETENTION_DAYS (or --days), in batches; deliveries still to be attempted and their events stay. Prints the counts.',
  options: {
    days: { type: 'string', value: 'N', help: 'the window in days (default: CUSTOPS_WEBHOOK_RETENTION_DAYS; there 0 purges nothing)' },
  },
  async run(values, ctx) {
    const days = values.days === undefined ? undefined : positiveInt(values.days, '--days');
    const config = loadConfig(ctx.env);
    const cutoff = retentionCutoff(ctx.clock.now(), days ?? config.webhookRetentionDays);
    const result =
      cutoff === null ? { events: 0, deliveries: 0, attempts: 0, batches: 0 } : await withDatabase(config, ({ db }) => purgeWebhookHistory(db, cutoff));
    print(ctx, { cutoff: cutoff === null ? null : new Date(cutoff).toISOString(), ...result });
  },
});
