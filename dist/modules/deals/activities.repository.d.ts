import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { DealActivitiesTable } from '../../db/schema.ts';
export type ActivityRow = Selectable<DealActivitiesTable>;
export declare function countActivities(db: Executor, accountId: number, dealId: number): Promise<number>;
export declare function listActivities(db: Executor, accountId: number, dealId: number, sort: 'created_at' | 'id', direction: 'asc' | 'desc', limit: number, offset: number): Promise<ActivityRow[]>;
export declare function findActivity(db: Executor, accountId: number, dealId: number, id: number): Promise<ActivityRow | undefined>;
export declare function insertActivity(db: Executor, values: Insertable<DealActivitiesTable>): Promise<ActivityRow>;
