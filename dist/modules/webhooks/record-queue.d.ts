import type { Db } from '../../db/database.ts';
import * as repo from './dispatch.repository.ts';
/**
 * Group commit for attempt records: the records that finish within a couple of milliseconds
 * (and while a write is running) share one transaction, so the database work per delivery shrinks
 * as the load grows. Each caller still learns whether its own record was written.
 */
export declare class RecordQueue {
    #private;
    constructor(db: Db, postgres: boolean);
    add(record: repo.AttemptRecord, decide: repo.PendingRecord['decide']): Promise<void>;
}
