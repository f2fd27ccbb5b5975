import type { Trx } from '../db/database.ts';
import type { Random } from './random.ts';
export declare const DAY_MS = 86400000;
/** Deals, activities, tickets and logs fall inside this many days before now. */
export declare const DEMO_WINDOW_DAYS = 120;
export interface DemoUser {
    id: number;
    active: boolean;
    sales: boolean;
    support: boolean;
}
export interface DemoOrg {
    id: number;
    name: string;
    contactIds: number[];
}
/** What the sales and support generators build on. */
export interface DemoWorld {
    trx: Trx;
    rnd: Random;
    now: number;
    accountId: number;
    users: DemoUser[];
    orgs: DemoOrg[];
}
/** A random instant in the last `days` days (never in the future), whole seconds. */
export declare function recent(rnd: Random, now: number, days: number): number;
/** Items of `rows` inserted a few hundred at a time (bound-parameter limits on both engines). */
export declare function insertBatched<R>(rows: R[], insert: (chunk: R[]) => Promise<unknown>): Promise<void>;
