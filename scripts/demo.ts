// `npm run demo`: a fresh SQLite database with the demo account, served until Ctrl-C.
import { rmSync } from 'node:fs';
import { loadConfig, withSecretKey } from '../src/config.ts';
import { openDatabase, sqlitePath } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedDemo } from '../src/demo/seed.ts';
import { systemClock } from '../src/lib/clock.ts';
import { startServer } from '../src/server.ts';

const DATABASE_URL = 'sqlite:./data/demo.db';

async function run(): Promise<void> {
  // Request logs would bury the instructions; LOG_LEVEL still wins when set.
  const config = withSecretKey(loadConfig({ ...process.env, DATABASE_URL, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' }));
  const file = sqlitePath(DATABASE_URL);
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });

  const database = openDatabase(config.databaseUrl);
  let demo: Awaited<ReturnType<typeof seedDemo>>;
  try {
    await migrateToLatest(database.db);
    demo = await seedDemo({ db: database.db, clock: systemClock, config }, { seed: 1 });
  } finally {
    await database.close();
  }

  const server = await startServer(config);
  const lines = [
    '',
    `custops demo: account "${demo.account.name}" (id ${demo.account.id}) in ${file}`,
    `API key (full access): ${demo.key.secret}`,
    '',
    `Web console: ${server.url}/`,
    `  sign in as ${demo.console.email}`,
    `  password   ${demo.console.password}`,
    '',
    'Try:',
    `  curl -s -H "Authorization: Bearer ${demo.key.secret}" "${server.url}/api/v1/deals?per_page=5"`,
    `  curl -s -H "Authorization: Bearer ${demo.key.secret}" "${server.url}/api/v1/activity?per_page=5"`,
    '',
    `API docs: ${server.url}/docs`,
    'Press Ctrl-C to stop.',
    '',
  ];
  process.stdout.write(lines.join('\n'));

  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    server.stop().then(
      () => process.stdout.write('custops demo: stopped\n'),
      (err) => {
        process.stderr.write(`custops demo: shutdown failed: ${String(err)}\n`);
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

run().catch((err) => {
  process.stderr.write(`custops demo: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
  process.exitCode = 1;
});
