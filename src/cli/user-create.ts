import { loadConfig } from '../config.ts';
import { createWrite } from '../lib/write.ts';
import { findAccount } from '../modules/accounts/accounts.repository.ts';
import { generatePassword, MIN_PASSWORD_LENGTH } from '../modules/sessions/passwords.service.ts';
import { ROLES } from '../modules/users/users.schemas.ts';
import { createUser } from '../modules/users/users.service.ts';
import { defineCommand, positiveInt, print, UsageError, withDatabase } from './command.ts';

export const userCreateCommand = defineCommand({
  name: 'user create',
  summary: 'Adds a team user who can sign in to the console; prints {"user", "password"} (a generated password is shown only here).',
  options: {
    account: { type: 'string', value: 'ID', help: 'the account id', required: true },
    email: { type: 'string', value: 'E', help: 'e-mail address (unique in the account)', required: true },
    name: { type: 'string', value: 'N', help: 'display name', required: true },
    role: { type: 'string', value: 'owner|admin|member', help: 'the console role', required: true },
    password: { type: 'string', value: 'P', help: `at least ${MIN_PASSWORD_LENGTH} characters (default: generated)` },
    'no-support': { type: 'boolean', help: 'the user does not work support tickets' },
  },
  async run(values, ctx) {
    const accountId = positiveInt(values.account, '--account');
    const email = values.email.trim();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new UsageError('--email is not an e-mail address');
    if (values.name.trim() === '') throw new UsageError('--name is empty');
    const role = values.role as (typeof ROLES)[number];
    if (!ROLES.includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
    if (values.password !== undefined && values.password.length < MIN_PASSWORD_LENGTH) {
      throw new UsageError(`--password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    }
    const password = values.password ?? generatePassword();
    const config = loadConfig(ctx.env);
    const user = await withDatabase(config, async ({ db }) => {
      if (!(await findAccount(db, accountId))) throw new Error(`no account with id ${accountId}`);
      return createUser({ db, config, write: createWrite({ db, clock: ctx.clock, wakeDispatcher: () => {} }) }, accountId, {
        email,
        display_name: values.name.trim(),
        role,
        password,
        support_enabled: !values['no-support'],
      });
    });
    print(ctx, { user, password });
  },
});
