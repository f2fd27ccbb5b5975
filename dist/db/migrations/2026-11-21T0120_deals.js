// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter } from 'kysely';
/**
 * Indexes for the deal list's sorts as GET /deals writes them. Text sorts compare code points
 * on both engines, so PostgreSQL sorts `collate "C"` and its index must carry that collation to
 * be usable; SQLite's default (BINARY) already is code-point order. The title sort reads the
 * lower-cased title, which makes the initial (account_id, title, id) index dead weight.
 */
export async function up(db) {
    const c = db.getExecutor().adapter instanceof SqliteAdapter ? '' : ' collate "C"';
    await sql.raw(`create index deals_account_title_lc_idx on deals (account_id, title_lc${c}, id)`).execute(db);
    await sql.raw(`create index deals_account_status_id_idx on deals (account_id, status${c}, id)`).execute(db);
    await sql.raw('create index deals_account_status_updated_idx on deals (account_id, status, updated_at, id)').execute(db);
    await sql.raw('drop index deals_account_title_idx').execute(db);
}
export async function down(db) {
    await sql.raw('create index deals_account_title_idx on deals (account_id, title, id)').execute(db);
    for (const name of ['deals_account_status_updated_idx', 'deals_account_status_id_idx', 'deals_account_title_lc_idx']) {
        await sql.raw(`drop index ${name}`).execute(db);
    }
}
