import type { Kysely } from 'kysely';
type AnyDb = Kysely<any>;
/** Facts about this installation, one row per name (the secret-key fingerprint first of all). */
export declare function up(db: AnyDb): Promise<void>;
export declare function down(db: AnyDb): Promise<void>;
export {};
