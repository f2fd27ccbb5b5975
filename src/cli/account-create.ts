import { loadConfig } from '../config.ts';
import { createAccount } from '../modules/accounts/accounts.service.ts';
import { defineCommand, print, UsageError, withDatabase } from './command.ts';

export const accountCreateCommand = defineCommand({
  name: 'account create',
  summary: 'Creates an account, optionally with an owner who can sign in; prints {"account", "owner"}.',
  options: {
    name: { type: 'string', value: 'NAME', help: 'the account name', required: true },
    'owner-email': { type: 'string', value: 'E', help: 'e-mail address of the owner to create' },
    'owner-password': { type: 'string', value: 'P', help: "the owner's password (needs --owner-email)" },
  },
  async run(values, ctx) {
    const email = values['owner-email'];
    if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new UsageError('--owner-email is not an e-mail address');
    if (values['owner-password'] !== undefined && email === undefined) throw new UsageError('--owner-password needs --owner-email');
    const config = loadConfig(ctx.env);
    const created = await withDatabase(config, ({ db }) =>
      createAccount({ db, clock: ctx.clock, config }, { name: values.name, ownerEmail: email, ownerPassword: values['owner-password'] }),
    );
    print(ctx, created);
  },
});
