// The write baseline: a bare Fastify whose POST handler does one plain parameterised INSERT of
// the activity row, with the driver the API uses (node:sqlite on the same file with the same
// pragmas, or a node-postgres pool of the API's size on the same schema). No auth, no
// validation schema, no idempotency, no transaction, no outbox: the floor of "write one row".
import Fastify from 'fastify';
import pg from 'pg';
import { NodeSqliteDatabase } from '../../src/db/sqlite-driver.ts';
import { sqlitePath } from '../../src/db/database.ts';
import { loadConfig } from '../../src/config.ts';

interface ActivityBody {
  activity_kind?: string;
  message: string;
  outcome?: string;
  source_app: string;
  external_reference?: string;
  metadata_json?: unknown;
}

const url = process.env.BENCH_DATABASE_URL!;
const accountId = Number(process.env.BENCH_ACCOUNT_ID);
// The deal's org is known up front: looking it up would be a second statement.
const orgId = Number(process.env.BENCH_ORG_ID);
const COLUMNS = 'account_id, deal_id, org_id, event_type, message, outcome, source_app, external_reference, metadata, user_id, created_at';

type Insert = (values: (string | number | null)[]) => Promise<number>;
let insert: Insert;
let close: () => Promise<void>;
if (url.startsWith('sqlite:')) {
  // The API's checkpoints too: on a thread of their own unless CUSTOPS_SQLITE_CHECKPOINT_THREAD=0 (read as serve reads it).
  const { sqliteCheckpointThread } = loadConfig({ CUSTOPS_SQLITE_CHECKPOINT_THREAD: process.env.CUSTOPS_SQLITE_CHECKPOINT_THREAD });
  const sqlite = new NodeSqliteDatabase(sqlitePath(url), { checkpointer: sqliteCheckpointThread });
  const stmt = sqlite.raw.prepare(`insert into deal_activities (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`);
  insert = async (values) => Number((stmt.get(...values) as { id: number }).id);
  close = async () => {
    await sqlite.checkpointer?.stop();
    sqlite.close();
  };
} else {
  // The API's pool: openDatabase() without poolSize gives it 10 connections.
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const text = `insert into deal_activities (${COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`;
  insert = async (values) => Number((await pool.query<{ id: string }>(text, values)).rows[0].id);
  close = () => pool.end();
}

const app = Fastify({ logger: false });
app.post<{ Params: { id: string }; Body: ActivityBody }>('/api/v1/deals/:id/activities', async (request, reply) => {
  const b = request.body;
  const id = await insert([
    accountId,
    Number(request.params.id),
    orgId,
    b.activity_kind ?? 'note',
    b.message,
    b.outcome ?? null,
    b.source_app,
    b.external_reference ?? null,
    b.metadata_json === undefined ? null : JSON.stringify(b.metadata_json),
    null,
    Date.now(),
  ]);
  return reply.code(201).send({ id });
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }) + '\n');
process.once('SIGTERM', () => {
  app
    .close()
    .then(close)
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
});
