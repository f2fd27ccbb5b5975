import type { Random } from '../demo/random.ts';
import type { Row } from './tables.ts';
import type { RollupTally } from './tally.ts';
/** The time window of a seed: two years up to `end` (a UTC midnight, so a seed run twice the same day writes the same rows). */
export interface Window {
    start: number;
    end: number;
}
export declare function windowEndingAt(now: number): Window;
/** The records already written that new rows point to. */
export interface People {
    users: number[];
    /** Users who take tickets (a third of the team). */
    supportUsers: number[];
    orgs: number[];
    /** Contact ids by position of their org in `orgs`. */
    contactsByOrg: number[][];
}
export declare function userRows(accountId: number, count: number, w: Window): Row[];
export declare function orgRows(rnd: Random, accountId: number, count: number, w: Window): Row[];
/** Contacts spread over the orgs (`orgOf[i]` is the position of contact i's org). */
export declare function contactRows(rnd: Random, accountId: number, orgIds: number[], orgRowsData: Row[], count: number): {
    rows: Row[];
    orgOf: number[];
};
/** One deal with its status history and timeline, before ids exist. */
export interface DealDraft {
    deal: Row;
    history: {
        from: string | null;
        to: string;
        by: number | null;
        at: number;
    }[];
    activities: Row[];
}
/** `count` deals created in order over the window from position `first` of `total`. */
export declare function dealDrafts(rnd: Random, accountId: number, p: People, w: Window, first: number, count: number, total: number, tally: RollupTally | null): DealDraft[];
export interface TicketDraft {
    ticket: Row;
    logs: Row[];
}
export declare function ticketDrafts(rnd: Random, accountId: number, p: People, w: Window, first: number, count: number, total: number, tally: RollupTally | null): TicketDraft[];
