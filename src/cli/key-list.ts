import { loadConfig } from '../config.ts';
import { listApiKeys } from '../modules/api-keys/api-keys.list.ts';
import { defineCommand, positiveInt, print, withDatabase } from './command.ts';

export const keyListCommand = defineCommand({
  name: 'key list',
  summary: 'Lists the API keys of an account, newest first, revoked ones included: id, name, prefix, scopes, created, last used, revoked. No secrets.',
  options: {
    account: { type: 'string', value: 'ID', help: 'the account id', required: true },
  },
  async run(values, ctx) {
    const accountId = positiveInt(values.account, '--account');
    print(ctx, await withDatabase(loadConfig(ctx.env), ({ db }) => listApiKeys(db, accountId)));
  },
});
