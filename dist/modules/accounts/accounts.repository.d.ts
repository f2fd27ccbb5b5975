import type { Executor } from '../../db/database.ts';
export declare function findAccount(db: Executor, id: number): Promise<{
    created_at: number;
    id: number;
    name: string;
} | undefined>;
export declare function insertAccount(db: Executor, row: {
    name: string;
    created_at: number;
}): Promise<{
    id: number;
    name: string;
}>;
