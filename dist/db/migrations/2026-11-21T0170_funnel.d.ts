import { type Kysely } from 'kysely';
type AnyDb = Kysely<any>;
export declare function up(db: AnyDb): Promise<void>;
/** Drops the stage triggers and facts; the furthest-rank funnel of 0160 is not restored (its code lives there). */
export declare function down(db: AnyDb): Promise<void>;
export {};
