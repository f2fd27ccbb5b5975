import { loadConfig } from '../config.ts';
import { MIN_PASSWORD_LENGTH, setPasswordByEmail } from '../modules/sessions/passwords.service.ts';
import { defineCommand, positiveInt, print, UsageError, withDatabase } from './command.ts';

export const userSetPasswordCommand = defineCommand({
  name: 'user set-password',
  summary: 'Sets a team user\'s console password and ends all of that user\'s sessions; prints {"user", "password", "sessions_ended"}.',
  options: {
    email: { type: 'string', value: 'E', help: "the user's e-mail address", required: true },
    password: { type: 'string', value: 'P', help: `at least ${MIN_PASSWORD_LENGTH} characters (default: generated)` },
    account: { type: 'string', value: 'ID', help: 'only when the e-mail belongs to users of several accounts' },
  },
  async run(values, ctx) {
    if (values.password !== undefined && values.password.length < MIN_PASSWORD_LENGTH) {
      throw new UsageError(`--password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    }
    const accountId = values.account === undefined ? undefined : positiveInt(values.account, '--account');
    const config = loadConfig(ctx.env);
    print(
      ctx,
      await withDatabase(config, ({ db }) =>
        setPasswordByEmail({ db, clock: ctx.clock, config }, { email: values.email, accountId, password: values.password }),
      ),
    );
  },
});
