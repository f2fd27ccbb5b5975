import { loadConfig } from '../config.ts';
import { BackupError, backupSqlite } from '../db/backup.ts';
import { sqlitePath } from '../db/database.ts';
import { defineCommand, print } from './command.ts';

export const backupCommand = defineCommand({
  name: 'backup',
  summary:
    'SQLite: writes a consistent copy of the database to FILE while the service keeps running (SQLite backup API). ' +
    'PostgreSQL: refuses; use pg_dump or continuous archiving (docs/operations.md).',
  options: {
    to: { type: 'string', value: 'FILE', help: 'where the copy goes (must not exist yet)', required: true },
  },
  async run(values, ctx) {
    const config = loadConfig(ctx.env);
    if (config.dialect === 'postgres') {
      ctx.log(
        'custops: backup copies SQLite databases only; back up PostgreSQL with pg_dump (for example ' +
          'pg_dump --format=custom --file=custops.dump "$DATABASE_URL") or continuous WAL archiving for point-in-time recovery',
      );
      return 1;
    }
    try {
      print(ctx, await backupSqlite(sqlitePath(config.databaseUrl), values.to, config.sqliteBusyTimeoutMs));
    } catch (err) {
      if (!(err instanceof BackupError)) throw err;
      ctx.log(`custops: backup failed: ${err.message}`);
      return 1;
    }
  },
});
