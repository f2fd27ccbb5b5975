import { revokeApiKey } from '../modules/api-keys/api-keys.service.ts';
import { idCommand } from './command.ts';

export const keyRevokeCommand = idCommand({
  name: 'key revoke',
  summary: 'Revokes an API key at once (revoking twice is harmless).',
  flag: 'id',
  help: 'the key id',
  call: ({ db }, id, ctx) => revokeApiKey({ db, clock: ctx.clock }, id),
});
