import { loadConfig } from '../config.js';
import { revokeApiKey } from '../modules/api-keys/api-keys.service.js';
import { defineCommand, positiveInt, print, withDatabase } from './command.js';
export const keyRevokeCommand = defineCommand({
    name: 'key revoke',
    summary: 'Revokes an API key at once (revoking twice is harmless).',
    options: {
        id: { type: 'string', value: 'ID', help: 'the key id', required: true },
    },
    async run(values, ctx) {
        const id = positiveInt(values.id, '--id');
        const config = loadConfig(ctx.env);
        print(ctx, await withDatabase(config, ({ db }) => revokeApiKey({ db, clock: ctx.clock }, id)));
    },
});
