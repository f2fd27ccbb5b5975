import { type Kysely } from 'kysely';
type AnyDb = Kysely<any>;
export declare function up(db: AnyDb): Promise<void>;
export declare function down(db: AnyDb): Promise<void>;
export {};
