import { type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { type Period } from './analytics.period.ts';
export declare const OPEN_DEAL: RawBuilder<unknown>;
export declare const CLOSED_DEAL: RawBuilder<unknown>;
export declare const OPEN_TICKET: RawBuilder<unknown>;
/** `column >= from and column < to`: the half-open period on an epoch-millisecond column. */
export declare function within(column: string, p: Period): RawBuilder<unknown>;
/** An optional `and …` clause. */
export declare function andIf(condition: boolean, clause: () => RawBuilder<unknown>): RawBuilder<unknown>;
/** ISO week bucket (weeks since Monday 1970-01-05): integer division, identical on both engines. */
export declare function weekBucket(column: string): RawBuilder<number>;
/** Runs a raw aggregate and reads every value back as a number (PostgreSQL returns bigint/numeric as text otherwise mapped). */
export declare function rows<T>(db: Executor, query: RawBuilder<T>): Promise<T[]>;
export declare function num(v: unknown): number;
export declare function nullableId(v: unknown): number | null;
