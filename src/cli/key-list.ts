import { listApiKeys } from '../modules/api-keys/api-keys.list.ts';
import { idCommand } from './command.ts';

export const keyListCommand = idCommand({
  name: 'key list',
  summary: 'Lists the API keys of an account, newest first, revoked ones included: id, name, prefix, scopes, created, last used, revoked. No secrets.',
  flag: 'account',
  help: 'the account id',
  call: ({ db }, accountId) => listApiKeys(db, accountId),
});
