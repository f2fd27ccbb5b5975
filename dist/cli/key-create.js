import { loadConfig } from '../config.js';
import { createApiKey, parseScopeList } from '../modules/api-keys/api-keys.service.js';
import { defineCommand, positiveInt, print, withDatabase } from './command.js';
export const keyCreateCommand = defineCommand({
    name: 'key create',
    summary: 'Creates an API key; prints it once with its secret (no --scopes: full access "*").',
    options: {
        account: { type: 'string', value: 'ID', help: 'the account the key acts for', required: true },
        name: { type: 'string', value: 'NAME', help: 'a name to recognise the key by', required: true },
        scopes: { type: 'string', value: 'LIST', help: 'comma-separated scopes, such as "deals:read,deals:write"' },
        'rate-limit': { type: 'string', value: 'N', help: 'requests per minute for this key (default: CUSTOPS_RATE_LIMIT_PER_MINUTE)' },
    },
    async run(values, ctx) {
        const accountId = positiveInt(values.account, '--account');
        const scopes = parseScopeList(values.scopes);
        const rateLimit = values['rate-limit'] === undefined ? null : positiveInt(values['rate-limit'], '--rate-limit');
        const config = loadConfig(ctx.env);
        const key = await withDatabase(config, ({ db }) => createApiKey({ db, clock: ctx.clock }, { accountId, name: values.name, scopes, rateLimitPerMinute: rateLimit }));
        print(ctx, key);
    },
});
