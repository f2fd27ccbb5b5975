import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { resolveSecretKey } from '../modules/secret-key/resolve.ts';
import { rotateSecretKey } from '../modules/secret-key/rotate.ts';
import { defineCommand, print } from './command.ts';

/**
 * `custops secret-key rotate`: checks the current key against the database (as `serve` does), then
 * re-encrypts every stored secret under a new one. Run it with serve and worker stopped.
 */
export const secretKeyRotateCommand = defineCommand({
  name: 'secret-key rotate',
  summary:
    'Re-encrypts every stored secret (webhook signing secrets, stored idempotent answers) under a new key, in one transaction. ' +
    'With a key file the file is replaced; with CUSTOPS_SECRET_KEY the new key is printed (secret_key) for you to put in its place. Stop serve and worker first.',
  options: {},
  async run(_values, ctx) {
    const config = loadConfig(ctx.env);
    const database = openDatabase(config.databaseUrl, { poolSize: 2 });
    try {
      await migrateToLatest(database.db);
      const current = await resolveSecretKey(config, database.db, ctx.clock.now());
      print(ctx, await rotateSecretKey(database.db, current, ctx.clock.now()));
    } finally {
      await database.close();
    }
  },
});
