import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type Scope } from './scopes.ts';
export interface CreatedKey {
    id: number;
    name: string;
    scopes: Scope[];
    rate_limit_per_minute: number | null;
    secret: string;
}
export declare class KeyInputError extends Error {
}
export declare function parseScopeList(text: string | undefined): Scope[];
export declare function createApiKey(deps: {
    db: Db;
    clock: Clock;
}, input: {
    accountId: number;
    name: string;
    scopes: Scope[];
    rateLimitPerMinute: number | null;
}): Promise<CreatedKey>;
export declare function revokeApiKey(deps: {
    db: Db;
    clock: Clock;
}, id: number): Promise<{
    id: number;
    revoked: boolean;
}>;
