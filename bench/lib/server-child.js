// The server under test: the real custops app (auth, rate limit, validation, database) as
// `custops serve` builds it, configured by the environment; prints {"url"} once listening.
// JavaScript, as bin/custops.js is: the entry point is not type-stripped, and once Node's compile
// cache is enabled (below) the TypeScript it imports is stripped once and then read from the cache,
// so a running server holds neither the stripper nor the parsed sources (docs/operations.md#memory).
import module from 'node:module';

module.enableCompileCache?.();

const { loadConfig } = await import('../../src/config.ts');
const { startServer } = await import('../../src/server.ts');

const server = await startServer(loadConfig(process.env), { logger: false });
process.stdout.write(JSON.stringify({ url: server.url }) + '\n');
process.once('SIGTERM', () => {
  server.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
