// `npm run demo`: a fresh SQLite database with the demo account, served until Ctrl-C.
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { openDatabase, sqlitePath } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedDemo } from '../src/demo/seed.ts';
import { systemClock } from '../src/lib/clock.ts';
import { resolveSecretKey, withResolvedKey } from '../src/modules/secret-key/resolve.ts';
import { startServer } from '../src/server.ts';

const DATABASE_URL = 'sqlite:./data/demo.db';

/** Resolves when host:port can be listened on; rejects with the reason (EADDRINUSE, EACCES…) otherwise. */
function checkPortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

async function run(): Promise<void> {
  // `npm run demo -- --port N` (or PORT=N): a flag wins over the environment, as for `custops serve`.
  const { values } = parseArgs({ args: process.argv.slice(2), options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true });
  if (values.port !== undefined && !/^\d+$/.test(values.port)) throw new Error(`--port must be a port number, got "${values.port}"`);
  // Request logs would bury the instructions; LOG_LEVEL still wins when set.
  const settings = loadConfig(
    { ...process.env, DATABASE_URL, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    { port: values.port === undefined ? undefined : Number(values.port), host: values.host },
  );
  // Before the demo database is wiped: a busy port must not cost the previous demo's data.
  try {
    await checkPortFree(settings.port, settings.host);
  } catch (err) {
    throw new Error(`port ${settings.port} on ${settings.host} is not available (${(err as NodeJS.ErrnoException).code}): pass --port N or set PORT`);
  }
  const file = sqlitePath(DATABASE_URL);
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });

  const database = openDatabase(settings.databaseUrl);
  let demo: Awaited<ReturnType<typeof seedDemo>>;
  let config = settings;
  try {
    await migrateToLatest(database.db);
    config = withResolvedKey(settings, await resolveSecretKey(settings, database.db, systemClock.now()));
    demo = await seedDemo({ db: database.db, clock: systemClock, config }, { seed: 1 });
  } finally {
    await database.close();
  }

  const server = await startServer(settings);
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
