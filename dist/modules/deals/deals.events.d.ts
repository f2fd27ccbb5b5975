import type { Executor } from '../../db/database.ts';
import type { DealActivityView, DealView } from './deals.schemas.ts';
/**
 * Every outbox event of the deals module is built here, so payload shapes live in one place.
 * Nested `deal` carries the full deal JSON (the catalog requires at least id, title, status;
 * receivers treat further keys as forward-compatible).
 */
interface Ctx {
    accountId: number;
    now: number;
}
export declare function emitDealCreated(trx: Executor, ctx: Ctx, deal: DealView): Promise<void>;
/** The event a status change implies: won and lost have one; moves to an open status have none (no deal.updated exists). */
export declare function emitStatusEvent(trx: Executor, ctx: Ctx, deal: DealView): Promise<void>;
export declare function emitActivityCreated(trx: Executor, ctx: Ctx & {
    orgId: number;
}, activity: DealActivityView): Promise<void>;
export {};
