import type { Insertable, Selectable, Updateable } from 'kysely';
import { engineOf } from '../../db/engine.ts';
import { countRows, newestFirstPage } from '../../lib/sql.ts';
import type { Executor } from '../../db/database.ts';
import { ENDPOINT_COLUMNS } from '../../db/columns.ts';
import type { WebhookEndpointsTable } from '../../db/schema.ts';

export type EndpointRow = Selectable<WebhookEndpointsTable>;

export function countEndpoints(db: Executor, accountId: number): Promise<number> {
  return countRows(db, db.selectFrom('webhook_endpoints').where('account_id', '=', accountId));
}

export function listEndpoints(db: Executor, accountId: number, limit: number, offset: number): Promise<EndpointRow[]> {
  return newestFirstPage(db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('account_id', '=', accountId), limit, offset).execute();
}

export function findEndpoint(db: Executor, accountId: number, id: number, options: { forUpdate?: boolean } = {}): Promise<EndpointRow | undefined> {
  const query = db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('account_id', '=', accountId).where('id', '=', id);
  return (options.forUpdate ? engineOf(db).forUpdate(query) : query).executeTakeFirst();
}

export function insertEndpoint(db: Executor, values: Insertable<WebhookEndpointsTable>): Promise<EndpointRow> {
  return db.insertInto('webhook_endpoints').values(values).returning(ENDPOINT_COLUMNS).executeTakeFirstOrThrow();
}

export function updateEndpoint(db: Executor, accountId: number, id: number, values: Updateable<WebhookEndpointsTable>): Promise<EndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
}

/** Deliveries and their attempts go with the endpoint (foreign keys cascade). */
export async function deleteEndpoint(db: Executor, accountId: number, id: number): Promise<boolean> {
  const r = await db.deleteFrom('webhook_endpoints').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
