import { type Kysely } from 'kysely';
type AnyDb = Kysely<any>;
/**
 * `next_trigger`: what caused a delivery's next attempt (null for the retry schedule, 'manual'
 * after a retry or recover request), so the attempt log can say which it was.
 * `webhook_deliveries_endpoint_due_idx`: the due work of one endpoint, oldest first, so the
 * dispatcher can serve the other endpoints while one is at its concurrency cap without scanning
 * that endpoint's backlog.
 */
export declare function up(db: AnyDb): Promise<void>;
export declare function down(db: AnyDb): Promise<void>;
export {};
