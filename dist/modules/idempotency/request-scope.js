import { AsyncLocalStorage } from 'node:async_hooks';
export const requestScope = new AsyncLocalStorage();
/**
 * Runs `fn` in a transaction. When the current request holds an Idempotency-Key claim, the same
 * transaction records on the claim that its write committed, so a process that dies after the
 * commit but before the response is stored can never have the request run a second time.
 * Every write service opens its transactions through here.
 */
export async function inTransaction(db, fn) {
    const scope = requestScope.getStore();
    const result = await db.transaction().execute(async (trx) => {
        const value = await fn(trx);
        if (scope?.claimId) {
            await trx.updateTable('idempotency_keys').set({ committed_at: Date.now() }).where('id', '=', scope.claimId).execute();
        }
        return value;
    });
    if (scope?.claimId)
        scope.committed = true;
    return result;
}
