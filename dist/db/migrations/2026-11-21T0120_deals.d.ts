import { type Kysely } from 'kysely';
type AnyDb = Kysely<any>;
/**
 * Indexes for the deal list's sorts as GET /deals writes them. Text sorts compare code points
 * on both engines, so PostgreSQL sorts `collate "C"` and its index must carry that collation to
 * be usable; SQLite's default (BINARY) already is code-point order. The title sort reads the
 * lower-cased title, which makes the initial (account_id, title, id) index dead weight.
 */
export declare function up(db: AnyDb): Promise<void>;
export declare function down(db: AnyDb): Promise<void>;
export {};
