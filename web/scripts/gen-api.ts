// Generates the TypeScript types of the public API from the service's own OpenAPI document
// (built in-process from the route schemas over an empty in-memory database), into
// src/client/api-types.ts. The console and the package's typed client (`custops/client`)
// both import them, so an API change that breaks either fails `npm run typecheck`.
// The output is generated on every build and typecheck and is not committed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

const OUT = join(import.meta.dirname, '..', '..', 'src', 'client', 'api-types.ts');

const database = openDatabase('sqlite::memory:');
// The app reads a few tables while it is built (the key cache's version row): an empty migrated database.
await migrateToLatest(database.db);
const app = await buildApp(loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }), { database, logger: false });
try {
  await app.ready();
  const document = app.swagger() as Parameters<typeof openapiTS>[0];
  const ast = await openapiTS(document, { alphabetize: false, exportType: false });
  const header = '// Generated from the custops OpenAPI document by web/scripts/gen-api.ts. Do not edit.\n\n';
  writeFileSync(OUT, header + astToString(ast));
} finally {
  await app.close();
  await database.close();
}
