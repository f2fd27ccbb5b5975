import type { Row } from './tables.ts';
export declare class RollupTally {
    #private;
    readonly accountId: number;
    constructor(accountId: number);
    /** One kept list count (see the list_counts migration): `list` and `bucket` name it. */
    count(list: string, bucket: string): void;
    deal(d: {
        owner: number | null;
        closer: number | null;
        org: number;
        status: string;
        closedAt: number | null;
        createdAt: number;
        stages: Iterable<string>;
    }): void;
    activity(a: {
        kind: string;
        user: number | null;
        org: number;
        createdAt: number;
    }): void;
    ticket(t: {
        owner: number | null;
        org: number;
        status: string;
        closedAt: number | null;
        createdAt: number;
    }): void;
    log(l: {
        author: number | null;
        org: number;
        createdAt: number;
    }): void;
    /** The rollup rows `(account_id, fact, day, dim, n)` gathered so far, and forgets them. */
    takeDaily(): Row[];
    /** The kept list counts `(account_id, list, bucket, shard, n)` gathered so far (shard 0), and forgets them. */
    takeLists(): Row[];
}
