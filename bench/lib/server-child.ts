// The server under test: the real custops app (auth, rate limit, validation, database) as
// `custops serve` builds it, configured by the environment; prints {"url"} once listening.
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server.ts';

const server = await startServer(loadConfig(process.env), { logger: false });
process.stdout.write(JSON.stringify({ url: server.url }) + '\n');
process.once('SIGTERM', () => {
  server.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
