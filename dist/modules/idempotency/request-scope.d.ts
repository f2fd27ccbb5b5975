import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Trx } from '../../db/database.ts';
/** What one request's writes need to know about its Idempotency-Key claim. */
export interface RequestScope {
    claimId: number | null;
    /** Set once a transaction that marked the claim has committed. */
    committed: boolean;
}
export declare const requestScope: AsyncLocalStorage<RequestScope>;
/**
 * Runs `fn` in a transaction. When the current request holds an Idempotency-Key claim, the same
 * transaction records on the claim that its write committed, so a process that dies after the
 * commit but before the response is stored can never have the request run a second time.
 * Every write service opens its transactions through here.
 */
export declare function inTransaction<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T>;
