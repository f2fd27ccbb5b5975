import type { DatabaseHandle } from '../db/database.ts';
import { type Row, type SeedTable } from './tables.ts';
/**
 * Bulk writes for the seed, one implementation per engine. Both write whole batches in one
 * transaction; `direct` says whether the tables' own triggers (the analytics rollups and the
 * list counts) are bypassed inside it, in which case the seed applies the same changes itself
 * (see tally.ts) in that same transaction, so the rollups stay exact at every commit.
 */
export interface BulkWriter {
    readonly direct: boolean;
    transaction<T>(fn: () => Promise<T>): Promise<T>;
    /** Inserts the rows; with `returning`, answers their new ids in row order. */
    insert(table: SeedTable, rows: Row[], returning?: boolean): Promise<number[]>;
    /** Adds `n` to counter rows keyed by their other columns (insert, or add on conflict). */
    addCounts(table: 'analytics_daily' | 'list_counts', key: readonly string[], rows: Row[]): Promise<void>;
    close(): Promise<void>;
}
export declare function openWriter(handle: DatabaseHandle, mode: 'direct' | 'triggers'): Promise<BulkWriter>;
