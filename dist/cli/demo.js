import { loadConfig } from '../config.js';
import { seedDemo } from '../demo/seed.js';
import { resolveSecretKey, withResolvedKey } from '../modules/secret-key/resolve.js';
import { defineCommand, positiveInt, print, withDatabase } from './command.js';
export const demoCommand = defineCommand({
    name: 'demo',
    summary: 'Creates a demo account with realistic data and a full-access key; prints {"account", "key"}.',
    options: {
        seed: { type: 'string', value: 'N', help: 'the same seed gives the same data (default 1)' },
    },
    async run(values, ctx) {
        const seed = values.seed === undefined ? 1 : positiveInt(values.seed, '--seed');
        const settings = loadConfig(ctx.env);
        // The CLI contract prints exactly {account, key}; `npm run demo` also prints the console sign-in.
        const { account, key } = await withDatabase(settings, async (database) => {
            const config = withResolvedKey(settings, await resolveSecretKey(settings, database.db, ctx.clock.now()));
            return seedDemo({ db: database.db, clock: ctx.clock, config }, { seed });
        });
        print(ctx, { account, key });
    },
});
