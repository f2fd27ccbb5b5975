import { loadConfig } from '../config.js';
import { openDatabase, timeoutsOf } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { defineCommand, print } from './command.js';
export const migrateCommand = defineCommand({
    name: 'migrate',
    summary: 'Brings the database to the latest migration; prints the migrations it ran.',
    options: {},
    async run(_values, ctx) {
        const config = loadConfig(ctx.env);
        const database = openDatabase(config.databaseUrl, { ...timeoutsOf(config), poolSize: 1, statementTimeoutMs: 0 });
        try {
            const result = await migrateToLatest(database.db);
            print(ctx, { migrated: (result.results ?? []).map((r) => r.migrationName) });
        }
        finally {
            await database.close();
        }
    },
});
