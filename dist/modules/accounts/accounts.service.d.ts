import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
export interface CreatedAccount {
    account: {
        id: number;
        name: string;
    };
    owner: {
        id: number;
        email: string;
    } | null;
}
/** Creates an account and, when an e-mail is given, its owner (who may log into the console with the password). */
export declare function createAccount(deps: {
    db: Db;
    clock: Clock;
}, input: {
    name: string;
    ownerEmail?: string;
    ownerPassword?: string;
    ownerName?: string;
}): Promise<CreatedAccount>;
