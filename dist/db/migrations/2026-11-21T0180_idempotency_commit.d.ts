import type { Kysely } from 'kysely';
type AnyDb = Kysely<any>;
/** When the request's write transaction committed (set in that transaction); null while it has not. */
export declare function up(db: AnyDb): Promise<void>;
export declare function down(db: AnyDb): Promise<void>;
export {};
