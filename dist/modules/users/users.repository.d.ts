import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { UsersTable } from '../../db/schema.ts';
export type NewUser = Omit<UsersTable, 'id'>;
export type UserRow = Selectable<UsersTable>;
export type UserSort = 'created_at' | 'id';
export interface UserFilter {
    activeOnly: boolean;
}
export interface UserOrder {
    sort: UserSort;
    direction: 'asc' | 'desc';
}
declare const PUBLIC_COLUMNS: readonly ['id', 'email', 'display_name', 'role', 'is_active', 'support_enabled', 'created_at'];
export type PublicUserRow = Pick<UserRow, (typeof PUBLIC_COLUMNS)[number]>;
export declare function insertUser(db: Executor, row: NewUser): Promise<{
    email: string;
    id: number;
}>;
export declare function countUsers(db: Executor, accountId: number, f: UserFilter): Promise<number>;
export declare function listUsers(db: Executor, accountId: number, f: UserFilter, order: UserOrder, limit: number, offset: number): Promise<PublicUserRow[]>;
export declare function findUser(db: Executor, accountId: number, id: number): Promise<PublicUserRow | undefined>;
export declare function findUserByEmail(db: Executor, accountId: number, emailLc: string): Promise<{
    id: number;
} | undefined>;
export declare function insertUserReturning(db: Executor, row: NewUser): Promise<PublicUserRow>;
export {};
